// Chess960 starting positions by number (Guideline II), without the rules core: a position
// is only a placement of the pieces on the first and last ranks.

/** The Chess960 starting position number `n` (0–959), Scharnagl's numbering (518 is the
 * standard position), as X-FEN (KQkq: the outermost rooks, Guideline II). */
export function chess960Fen(n: number): string {
  const rank: (string | null)[] = Array(8).fill(null);
  let k = n;
  // Light-squared bishop (files b, d, f, h), then the dark-squared one (a, c, e, g).
  rank[(k % 4) * 2 + 1] = 'B';
  k = Math.floor(k / 4);
  rank[(k % 4) * 2] = 'B';
  k = Math.floor(k / 4);
  const free = () => rank.map((p, i) => (p === null ? i : -1)).filter((i) => i >= 0);
  // The queen on one of the six squares left.
  rank[free()[k % 6]] = 'Q';
  k = Math.floor(k / 6);
  // The two knights among the five squares left, in the KRN table's order.
  const knightPairs = [
    [0, 1], [0, 2], [0, 3], [0, 4], [1, 2], [1, 3], [1, 4], [2, 3], [2, 4], [3, 4],
  ];
  const [a, b] = knightPairs[k];
  const f5 = free();
  rank[f5[a]] = 'N';
  rank[f5[b]] = 'N';
  const [r1, kk, r2] = free();
  rank[r1] = 'R';
  rank[kk] = 'K';
  rank[r2] = 'R';
  const white = rank.join('');
  return `${white.toLowerCase()}/pppppppp/8/8/8/8/PPPPPPPP/${white} w KQkq - 0 1`;
}
