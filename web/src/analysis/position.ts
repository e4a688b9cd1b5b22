// The analysis board's only door to the rules: every chess question it asks goes through
// `../chess` here, so that a change of the rules' implementation underneath touches one file.

import { readFen as readFenChecked, dests as chessDests, isPromotion, parseSquareName, moveToUci, uciToMove, sanOf, translateSan, makeFen, INITIAL_FEN, type Chess, type Role } from '../chess';
import type { Lang } from '../i18n';

/** A position as the rules core holds it (opaque to the rest of the board). */
export type Pos = Chess;

export type Color = 'white' | 'black';
export type { Role };

export { INITIAL_FEN };
export { chess960Fen } from './chess960';

/** Reads a FEN; the error names what is wrong as the rules core reports it. */
export function readFen(fen: string, chess960 = false): { pos: Pos } | { error: string } {
  const text = fen.trim().replace(/\s+/g, ' ');
  if (!text) return { error: 'empty FEN' };
  // The rules core's reader names the field or the fault (`field 2: expected 'w' or 'b' …`).
  return readFenChecked(text, chess960);
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

/** The squares a UCI move touches, for chessground's last-move highlight. Castling written
 * as e1g1 highlights e1 and g1, as king-takes-rook the king's and the rook's squares. */
export function moveSquares(uci: string): [string, string] | undefined {
  return /^[a-h][1-8][a-h][1-8]/.test(uci) ? [uci.slice(0, 2), uci.slice(2, 4)] : undefined;
}

/** English SAN in the letters of the user's language (Appendix C.3). */
export function sanInLang(san: string, lang: Lang): string {
  return translateSan(san, lang, false, 'white');
}
