// Evaluations as the board shows them: "+0.35", "#3", "−#2", always from White's point of
// view, and White's winning chance for the bar and the graph.

/** Centipawns, or mate in N moves (N < 0: Black mates). */
export type Score = { cp: number } | { mate: number };

const MINUS = '\u2212';

/** "+0.35", "−1.20", "0.00", "#3", "−#2". */
export function scoreText(s: Score): string {
  if ('mate' in s) return s.mate < 0 ? `${MINUS}#${-s.mate}` : `#${s.mate}`;
  const pawns = s.cp / 100;
  if (Math.abs(pawns) < 0.005) return '0.00';
  return `${pawns > 0 ? '+' : MINUS}${Math.abs(pawns).toFixed(2)}`;
}

/** White's winning chance on [−1, 1]: lichess's logistic of the centipawns, ±1 for a mate
 * (the same curve the server's marks use, so the graph and the marks agree). */
export function winningChance(s: Score): number {
  if ('mate' in s) return s.mate > 0 ? 1 : -1;
  const cp = Math.max(-1000, Math.min(1000, s.cp));
  return 2 / (1 + Math.exp(-0.00368208 * cp)) - 1;
}

/** The share of the bar that is White's, 0..1. */
export function whiteShare(s: Score): number {
  return (winningChance(s) + 1) / 2;
}
