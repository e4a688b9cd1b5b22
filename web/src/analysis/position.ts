// The analysis board's only door to the rules: every chess question it asks goes through
// `../chess` here, so that a change of the rules' implementation underneath touches one file.

import { positionFromFen, dests as chessDests, isPromotion, parseSquareName, moveToUci, uciToMove, sanOf, translateSan, makeFen, INITIAL_FEN, type Chess, type Role } from '../chess';
import type { Lang } from '../i18n';

/** A position as the rules core holds it (opaque to the rest of the board). */
export type Pos = Chess;

export type Color = 'white' | 'black';
export type { Role };

export { INITIAL_FEN };

/** Reads a FEN; the error names what is wrong as the rules core reports it. */
export function readFen(fen: string): { pos: Pos } | { error: string } {
  const text = fen.trim().replace(/\s+/g, ' ');
  if (!text) return { error: 'empty FEN' };
  const fields = text.split(' ');
  if (fields.length < 4) return { error: `expected at least 4 fields, found ${fields.length}` };
  const pos = positionFromFen(text);
  return pos ? { pos } : { error: 'not a legal position' };
}

/** The position's FEN as the rules core writes it. */
export function fenOf(pos: Pos): string {
  return makeFen(pos.toSetup());
}

export function turnOf(pos: Pos): Color {
  return pos.turn;
}

export function inCheck(pos: Pos): boolean {
  return pos.isCheck();
}

/** Legal destinations in chessground's form. */
export function legalDests(pos: Pos, chess960: boolean): Map<string, string[]> {
  return chessDests(pos, chess960);
}

/** Whether moving from → to is a pawn reaching the last rank (a piece must be chosen). */
export function needsPromotion(pos: Pos, from: string, to: string): boolean {
  return isPromotion(pos, from, to);
}

/** The UCI of a move given by its squares (as dragged on the board), or null if illegal. */
export function uciOfSquares(pos: Pos, from: string, to: string, promotion: Role | undefined, chess960: boolean): string | null {
  const f = parseSquareName(from);
  const t = parseSquareName(to);
  if (f === undefined || t === undefined) return null;
  const m = promotion ? { from: f, to: t, promotion } : { from: f, to: t };
  const uci = moveToUci(pos, m, chess960);
  return uciToMove(pos, uci) ? uci : null;
}

/** A move played: the position after it, its SAN (English letters) and its UCI as written
 * for this variant. Null when the move is not legal here. */
export function playUci(pos: Pos, uci: string, chess960: boolean): { pos: Pos; san: string; uci: string } | null {
  const m = uciToMove(pos, uci);
  if (!m) return null;
  const san = sanOf(pos, m);
  const written = moveToUci(pos, m, chess960);
  const after = pos.clone();
  after.play(m);
  return { pos: after, san, uci: written };
}

/** The SAN of a line of UCI moves from `fen`, as far as the moves are legal. */
export function sanLine(fen: string, ucis: string[], chess960: boolean): string[] {
  const r = readFen(fen);
  if (!('pos' in r)) return [];
  let pos = r.pos;
  const out: string[] = [];
  for (const u of ucis) {
    const p = playUci(pos, u, chess960);
    if (!p) break;
    out.push(p.san);
    pos = p.pos;
  }
  return out;
}

/** The squares a UCI move touches, for chessground's last-move highlight. Castling written
 * as e1g1 highlights e1 and g1, as king-takes-rook the king's and the rook's squares. */
export function moveSquares(uci: string): [string, string] | undefined {
  return /^[a-h][1-8][a-h][1-8]/.test(uci) ? [uci.slice(0, 2), uci.slice(2, 4)] : undefined;
}

const PIECES_960 = ['N', 'B', 'Q'];

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
  rank[free()[k % 6]] = PIECES_960[2];
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

/** English SAN in the letters of the user's language (Appendix C.3). */
export function sanInLang(san: string, lang: Lang): string {
  return translateSan(san, lang, false, 'white');
}
