// The position on the client (the rules core in WebAssembly, web/src/rules), for hints only: legal-move destinations, SAN in the user's
// letters, typed moves, and which draw claims would be valid. The server stays the authority.

import { Chess, INITIAL_FEN, makeSquare, makeUci, parseUci, squareFile, squareRank, type Move, type NormalMove, type Role, type Square, type Color } from './rules/position';
import { PIECE_LETTERS, type Lang } from './i18n';

export type { Move, NormalMove, Role, Color, Square };

/** A position from a FEN, or null if the rules core does not accept it. */
export function positionFromFen(fen: string): Chess | null {
  const r = Chess.fromFen(fen);
  return 'pos' in r ? r.pos : null;
}

/** A position from a FEN, or the rules core's reason why not (the field or the fault). */
export function readFen(fen: string, chess960 = true): { pos: Chess } | { error: string } {
  return Chess.fromFen(fen, chess960);
}

/** The key of a position for repetition (Art. 9.2.3): same player to move, same pieces on the
 * same squares, same castling rights, and en passant only if it can really be played. */
export function repetitionKey(pos: Chess): string {
  return pos.repetitionKey;
}

/** `makeFen(pos.toSetup())`: the position's FEN (kept from the chessops days). */
export function makeFen(setup: { fen: string }): string {
  return setup.fen;
}

/** The game replayed on the client. */
export interface Replay {
  /** Positions before each move, and the current one last (length = moves + 1). */
  positions: Chess[];
  /** English SAN of each move as computed here. */
  sans: string[];
  /** Whether the replay agrees with the server's position. */
  complete: boolean;
}

export function replay(initialFen: string | null | undefined, ucis: string[], serverFen: string): Replay {
  const fallback = (): Replay => {
    const pos = positionFromFen(serverFen) ?? Chess.default();
    return { positions: [pos], sans: [], complete: ucis.length === 0 };
  };
  const start = positionFromFen(initialFen ?? INITIAL_FEN);
  if (!start) return fallback();
  const positions: Chess[] = [start.clone()];
  const sans: string[] = [];
  let pos = start;
  for (const u of ucis) {
    const raw = parseUci(u);
    const legal = raw && pos.find(raw);
    if (!legal) return fallback();
    sans.push(legal.san);
    pos = pos.clone();
    pos.play(legal.move);
    positions.push(pos);
  }
  const boardOf = (f: string) => f.split(' ')[0];
  if (boardOf(pos.fen) !== boardOf(serverFen)) return fallback();
  return { positions, sans, complete: true };
}

/** Legal destinations in chessground's form. Castling is king-takes-rook; in standard chess
 * the king's two-square destination is given as well (chessground accepts either). */
export function dests(pos: Chess, chess960: boolean): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (from: string, to: string) => {
    const list = out.get(from);
    if (!list) out.set(from, [to]);
    else if (!list.includes(to)) list.push(to);
  };
  for (const x of pos.legalMoves()) {
    add(x.uci.slice(0, 2), x.uci.slice(2, 4));
    if (!chess960 && x.uciStandard) add(x.uciStandard.slice(0, 2), x.uciStandard.slice(2, 4));
  }
  return out;
}

export function isPromotion(pos: Chess, from: string, to: string): boolean {
  const f = parseSquareName(from);
  const tt = parseSquareName(to);
  if (f === undefined || tt === undefined) return false;
  const p = pos.board.get(f);
  if (!p || p.role !== 'pawn') return false;
  const r = squareRank(tt);
  return r === 0 || r === 7;
}

export function parseSquareName(s: string): Square | undefined {
  if (!/^[a-h][1-8]$/.test(s)) return undefined;
  return (s.charCodeAt(0) - 97) + 8 * (s.charCodeAt(1) - 49);
}

/** UCI for the server. Castling is sent as the king's two-square move in standard chess and
 * as king-takes-rook in Chess960, the two encodings the rules crate reads. */
export function moveToUci(pos: Chess, m: NormalMove, chess960: boolean): string {
  const legal = pos.find(m);
  if (!legal) return makeUci(m);
  return !chess960 && legal.uciStandard ? legal.uciStandard : legal.uci;
}

/** The legal move a UCI string stands for (either castling form), or null. */
export function uciToMove(pos: Chess, uci: string): NormalMove | null {
  const raw = parseUci(uci);
  return (raw && pos.find(raw)?.move) ?? null;
}

export function sanOf(pos: Chess, m: Move): string {
  return pos.san(m);
}

const FIGURINES_WHITE = ['♔', '♕', '♖', '♗', '♘'];
const FIGURINES_BLACK = ['♚', '♛', '♜', '♝', '♞'];
const EN = 'KQRBN';
const ROLE_LETTER: Record<Role, string> = { king: 'K', queen: 'Q', rook: 'R', bishop: 'B', knight: 'N', pawn: '' };

/** English SAN in another language's letters (Appendix C.3) or in figurines. */
export function translateSan(san: string, lang: Lang, figurines: boolean, color: Color): string {
  const letters = figurines ? (color === 'white' ? FIGURINES_WHITE : FIGURINES_BLACK) : PIECE_LETTERS[lang];
  // Appendix C.13 writes castling with zeros, as the Czech and Slovak texts do.
  const castle = lang === 'cs' || lang === 'sk' ? san.replace(/O/g, '0') : san;
  return castle.replace(/[KQRBN]/g, (c) => letters[EN.indexOf(c)]);
}

function squash(s: string): string {
  return s
    .replace(/[+#!?]/g, '')
    .replace(/e\.?p\.?$/i, '')
    .replace(/[x:×\-=\s]/g, '')
    .replace(/^0{2,3}$/, (z) => (z.length === 2 ? 'OO' : 'OOO'));
}

export type Typed = { ok: NormalMove } | { ambiguous: string[] } | { none: true };

/** Reads a move typed by a player: SAN with the letters of the UI language, English, Czech or
 * Slovak, German, or figurines; castling as O-O or 0-0; or UCI. Captures and check marks may
 * be left out. */
export function parseTyped(pos: Chess, text: string, lang: Lang): Typed {
  const input = text.trim();
  if (!input) return { none: true };
  const u = /^[a-h][1-8][a-h][1-8][qrbn]?$/.test(input) ? uciToMove(pos, input) : null;
  if (u) return { ok: u };
  const fig = input.replace(/[♔♚]/g, 'K').replace(/[♕♛]/g, 'Q').replace(/[♖♜]/g, 'R').replace(/[♗♝]/g, 'B').replace(/[♘♞]/g, 'N');
  const legal = pos.legalMoves().map((x) => ({ move: x.move, key: squash(x.san), san: x.san }));
  const order: (Lang | 'de')[] = [lang, 'en', 'cs', 'de'];
  const tried = new Set<string>();
  for (const l of order) {
    const letters = PIECE_LETTERS[l];
    const key = letters.join('');
    if (tried.has(key)) continue;
    tried.add(key);
    // Upper-case letters are pieces; a lower-case first letter that is no file is a piece too.
    let s = fig;
    if (/^[a-z]/.test(s) && !/^[a-h]/.test(s)) s = s[0].toUpperCase() + s.slice(1);
    const mapped = s.replace(/[A-Z]/g, (c) => {
      if (c === 'O') return c;
      const i = letters.indexOf(c);
      return i >= 0 ? EN[i] : '~';
    });
    const k = squash(mapped);
    let hits = legal.filter((x) => x.key === k);
    // A pawn promotion typed without a piece means nothing; "e8" alone is ambiguous then.
    if (!hits.length) {
      // Allow a redundant origin: "Ng1f3" or "Pe4".
      const m2 = /^([KQRBN]?)([a-h]?[1-8]?)([a-h][1-8])([QRBN]?)$/.exec(k.replace(/^P/, ''));
      if (m2) {
        const [, piece, origin, dest, promo] = m2;
        hits = legal.filter((x) => {
          const fromName = makeSquare(x.move.from);
          const role = pos.board.get(x.move.from)?.role ?? 'pawn';
          const wantPromo = promo ? ROLE_LETTER[x.move.promotion ?? 'pawn'] === promo : !x.move.promotion;
          return (
            makeSquare(x.move.to) === dest &&
            ROLE_LETTER[role] === piece &&
            (origin === '' || (origin.length === 2 ? fromName === origin : fromName.includes(origin))) &&
            wantPromo
          );
        });
      }
    }
    if (hits.length === 1) return { ok: hits[0].move };
    if (hits.length > 1) return { ambiguous: hits.map((h) => h.san) };
  }
  return { none: true };
}

/** Which draw claims the player to move could make (Art. 9.2 threefold, 9.3 fifty moves). */
export interface ClaimInfo {
  /** A claim in the current position is valid (Art. 9.2.1.2, 9.3.2). */
  now: ('threefold' | 'fifty')[];
  /** Moves that, written and declared, make a claim valid (Art. 9.2.1.1, 9.3.1). */
  withMove: { move: NormalMove; san: string; why: 'threefold' | 'fifty' }[];
}

export function claims(r: Replay): ClaimInfo {
  const info: ClaimInfo = { now: [], withMove: [] };
  if (!r.complete) return info;
  const counts = new Map<string, number>();
  for (const p of r.positions) {
    const k = repetitionKey(p);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const pos = r.positions[r.positions.length - 1];
  if (pos.isEnd()) return info;
  if ((counts.get(repetitionKey(pos)) ?? 0) >= 3) info.now.push('threefold');
  if (pos.halfmoves >= 100) info.now.push('fifty');
  for (const x of pos.legalMoves()) {
    // One entry per move: a promotion is offered as a queen.
    if (x.move.promotion && x.move.promotion !== 'queen') continue;
    const after = pos.clone();
    after.play(x.move);
    if (after.isCheckmate()) continue; // Art. 5.1.1 ends the game; nothing to claim
    const seen = (counts.get(repetitionKey(after)) ?? 0) + 1;
    if (seen >= 3) info.withMove.push({ move: x.move, san: x.san, why: 'threefold' });
    else if (after.halfmoves >= 100) info.withMove.push({ move: x.move, san: x.san, why: 'fifty' });
  }
  return info;
}

// ---- Words for screen readers and speech (Appendix D) ----

export interface Words {
  king: string;
  queen: string;
  rook: string;
  bishop: string;
  knight: string;
  pawn: string;
  takes: string;
  check: string;
  mate: string;
  short: string;
  long: string;
  promotes: string;
  enPassant: string;
}

/** Appendix D.2.1: files Anna … Hector, ranks in German numerals, German piece names,
 * "Kurze/Lange Rochade". */
export const APPENDIX_D = {
  files: ['Anna', 'Bella', 'Cesar', 'David', 'Eva', 'Felix', 'Gustav', 'Hector'],
  ranks: ['eins', 'zwei', 'drei', 'vier', 'fünf', 'sechs', 'sieben', 'acht'],
  words: {
    king: 'Koenig',
    queen: 'Dame',
    rook: 'Turm',
    bishop: 'Laeufer',
    knight: 'Springer',
    pawn: 'Bauer',
    takes: 'schlägt',
    check: 'Schach',
    mate: 'Matt',
    short: 'Kurze Rochade',
    long: 'Lange Rochade',
    promotes: 'wird',
    enPassant: 'en passant',
  } as Words,
};

export function squareWords(sq: Square, appendixD: boolean): string {
  if (appendixD) return `${APPENDIX_D.files[squareFile(sq)]} ${APPENDIX_D.ranks[squareRank(sq)]}`;
  return makeSquare(sq);
}

/** A move in words, e.g. "knight g1 f3 check" or "Springer Gustav eins Felix drei Schach". */
export function moveWords(before: Chess, m: NormalMove, words: Words, appendixD: boolean): string {
  const w = appendixD ? APPENDIX_D.words : words;
  const piece = before.board.get(m.from);
  const san = before.find(m)?.san ?? '';
  const side = san.startsWith('O-O-O') ? 'a' : san.startsWith('O-O') ? 'h' : undefined;
  const after = before.clone();
  after.play(m);
  const parts: string[] = [];
  if (side) parts.push(side === 'h' ? w.short : w.long);
  else {
    parts.push(w[piece?.role ?? 'pawn']);
    parts.push(squareWords(m.from, appendixD));
    const captured = before.board.get(m.to);
    const ep = piece?.role === 'pawn' && squareFile(m.from) !== squareFile(m.to) && !captured;
    if (captured || ep) parts.push(w.takes);
    parts.push(squareWords(m.to, appendixD));
    if (ep) parts.push(w.enPassant);
    if (m.promotion) parts.push(w.promotes, w[m.promotion]);
  }
  if (after.isCheckmate()) parts.push(w.mate);
  else if (after.isCheck()) parts.push(w.check);
  return parts.join(' ');
}

/** The position in words: each side's pieces, king first. */
export function positionWords(pos: Chess, words: Words, appendixD: boolean): { white: string; black: string } {
  const w = appendixD ? APPENDIX_D.words : words;
  const roles: Role[] = ['king', 'queen', 'rook', 'bishop', 'knight', 'pawn'];
  const side = (c: Color) =>
    roles
      .flatMap((r) => [...pos.board.pieces(c, r)].map((sq) => `${w[r]} ${squareWords(sq, appendixD)}`))
      .join(', ');
  return { white: side('white'), black: side('black') };
}

export { makeSquare, makeUci, INITIAL_FEN, Chess };
