// A chess position on the page, answered by the rules core (crates/rules through the
// WebAssembly module): the same legal moves, SAN, check and game-end facts as the server.
// Squares are numbers 0–63 (a1 = 0, h8 = 63); castling is stored as the king taking its own
// rook, as in the rules core (unambiguous in Chess960).

import { callRules } from './wasm';

export type Color = 'white' | 'black';
export type Role = 'pawn' | 'knight' | 'bishop' | 'rook' | 'queen' | 'king';
export type Square = number;

/** A move by squares; castling is the king's square to its rook's. */
export interface NormalMove {
  from: Square;
  to: Square;
  promotion?: Role;
}
export type Move = NormalMove;

export interface Piece {
  role: Role;
  color: Color;
}

/** A legal move as the rules core writes it. */
export interface LegalMove {
  move: NormalMove;
  /** UCI, castling as king takes rook. */
  uci: string;
  /** UCI of standard castling as the king's two-square move (`e1g1`); absent otherwise. */
  uciStandard?: string;
  /** SAN with English letters, with `+` or `#`. */
  san: string;
}

/** What the rules core says of a position (crates/wasm/src/api.rs, `describe`). */
interface Description {
  fen: string;
  turn: Color;
  board: string;
  check: boolean;
  checkmate: boolean;
  stalemate: boolean;
  insufficient: { white: boolean; black: boolean };
  outcome: { result: string; termination: string } | null;
  halfmoves: number;
  fullmoves: number;
  key: string;
  legal: number;
}

export const INITIAL_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

const ROLE_OF: Record<string, Role> = { p: 'pawn', n: 'knight', b: 'bishop', r: 'rook', q: 'queen', k: 'king' };
const LETTER_OF: Record<Role, string> = { pawn: 'p', knight: 'n', bishop: 'b', rook: 'r', queen: 'q', king: 'k' };

export const squareFile = (sq: Square): number => sq & 7;
export const squareRank = (sq: Square): number => sq >> 3;
export const makeSquare = (sq: Square): string => String.fromCharCode(97 + squareFile(sq)) + String.fromCharCode(49 + squareRank(sq));

export function parseSquare(s: string): Square | undefined {
  if (!/^[a-h][1-8]$/.test(s)) return undefined;
  return s.charCodeAt(0) - 97 + 8 * (s.charCodeAt(1) - 49);
}

/** The move in UCI as given (castling as stored: king takes rook). */
export function makeUci(m: NormalMove): string {
  return makeSquare(m.from) + makeSquare(m.to) + (m.promotion ? LETTER_OF[m.promotion] : '');
}

export function parseUci(uci: string): NormalMove | undefined {
  if (!/^[a-h][1-8][a-h][1-8][qrbnk]?$/.test(uci)) return undefined;
  const m: NormalMove = { from: parseSquare(uci.slice(0, 2))!, to: parseSquare(uci.slice(2, 4))! };
  if (uci.length === 5) m.promotion = ROLE_OF[uci[4]];
  return m;
}

/** The pieces of a position. */
export class Board {
  constructor(private readonly placement: string) {}

  get(sq: Square): Piece | undefined {
    const c = this.placement[sq];
    if (!c || c === '.') return undefined;
    const lower = c.toLowerCase();
    return { role: ROLE_OF[lower], color: c === lower ? 'black' : 'white' };
  }

  /** The squares of `color`'s pieces of `role`, a1 first. */
  *pieces(color: Color, role: Role): IterableIterator<Square> {
    const letter = color === 'white' ? LETTER_OF[role].toUpperCase() : LETTER_OF[role];
    for (let sq = 0; sq < 64; sq++) if (this.placement[sq] === letter) yield sq;
  }
}

/** Reads the rules core's answer or throws its error (only for states the core produced). */
function must(r: ReturnType<typeof callRules>): string {
  if (!r.ok) throw new Error(r.error);
  return r.json;
}

/** A legal position (validated by the rules core). Castling fields are read as X-FEN, so
 * Chess960 positions and standard ones are both accepted. */
export class Chess {
  private d: Description;
  private boardCache: Board | null = null;
  private legalCache: LegalMove[] | null = null;

  private constructor(d: Description) {
    this.d = d;
  }

  /** Reads a FEN; the error names the field or the fault as the rules core reports it
   * (`field 2: expected 'w' or 'b', found 'x'`, `white has 2 kings`). `chess960: false` insists
   * on standard castling rooks. */
  static fromFen(fen: string, chess960 = true): { pos: Chess } | { error: string } {
    const r = callRules('position', [fen, chess960 ? 'chess960' : 'standard']);
    return r.ok ? { pos: new Chess(JSON.parse(r.json) as Description) } : { error: r.error };
  }

  static default(): Chess {
    const r = Chess.fromFen(INITIAL_FEN);
    if ('error' in r) throw new Error(r.error);
    return r.pos;
  }

  /** The FEN (X-FEN castling; en passant only when the capture is legal). */
  get fen(): string {
    return this.d.fen;
  }
  get turn(): Color {
    return this.d.turn;
  }
  get halfmoves(): number {
    return this.d.halfmoves;
  }
  get fullmoves(): number {
    return this.d.fullmoves;
  }
  get board(): Board {
    return (this.boardCache ??= new Board(this.d.board));
  }
  /** Art. 9.2.2's "same position": placement, side to move, castling rights, and the en
   * passant square only when the capture is legal. */
  get repetitionKey(): string {
    return this.d.key;
  }

  isCheck(): boolean {
    return this.d.check;
  }
  /** Art. 5.1.1. */
  isCheckmate(): boolean {
    return this.d.checkmate;
  }
  /** Art. 5.2.1. */
  isStalemate(): boolean {
    return this.d.stalemate;
  }
  /** Art. 5.2.2 from material alone (both sides). */
  isInsufficientMaterial(): boolean {
    return this.d.insufficient.white && this.d.insufficient.black;
  }
  /** Whether `color` could never mate with its material (Art. 6.9, 9.6.2 in part). */
  hasInsufficientMaterial(color: Color): boolean {
    return this.d.insufficient[color];
  }
  /** The game is over in this position alone: mate, stalemate or insufficient material. */
  isEnd(): boolean {
    return this.d.outcome !== null;
  }
  outcome(): { result: string; termination: string } | null {
    return this.d.outcome;
  }

  /** Every legal move with its UCI and SAN, in the rules core's order. */
  legalMoves(): LegalMove[] {
    if (!this.legalCache) {
      const list = JSON.parse(must(callRules('moves', [this.d.fen, 'chess960']))) as { u: string; c?: string; s: string }[];
      this.legalCache = list.map((x) => ({ move: parseUci(x.u)!, uci: x.u, uciStandard: x.c, san: x.s }));
    }
    return this.legalCache;
  }

  /** The legal move meant by `m` (castling given either as king takes rook or as the
   * king's two-square move of standard chess), or undefined. */
  find(m: NormalMove): LegalMove | undefined {
    const uci = makeUci(m);
    return this.legalMoves().find((x) => x.uci === uci || x.uciStandard === uci);
  }

  isLegal(m: NormalMove): boolean {
    return this.find(m) !== undefined;
  }

  /** The SAN of a legal move. */
  san(m: NormalMove): string {
    const x = this.find(m);
    if (!x) throw new Error(`illegal move ${makeUci(m)}`);
    return x.san;
  }

  /** Plays a legal move (throws on an illegal one). */
  play(m: NormalMove): void {
    const x = this.find(m);
    if (!x) throw new Error(`illegal move ${makeUci(m)} in ${this.d.fen}`);
    const out = JSON.parse(must(callRules('play', [this.d.fen, 'chess960', x.uci]))) as { after: Description };
    this.d = out.after;
    this.boardCache = null;
    this.legalCache = null;
  }

  clone(): Chess {
    const c = new Chess(this.d);
    c.boardCache = this.boardCache;
    c.legalCache = this.legalCache;
    return c;
  }

  /** Kept for the callers written for chessops: `makeFen(pos.toSetup())`. */
  toSetup(): { fen: string } {
    return { fen: this.d.fen };
  }

  /** Leaf nodes of the legal move tree to `depth` (computed in the module). */
  perft(depth: number): number {
    return (JSON.parse(must(callRules('perft', [this.d.fen, 'chess960', depth]))) as { nodes: number }).nodes;
  }

  /** Reads exact SAN (in the letters of `lang`: en, cs, sk, de, …) with the rules core. */
  parseSan(san: string, lang = 'en'): LegalMove | { error: string } {
    const r = callRules('san', [this.d.fen, 'chess960', san, lang]);
    if (!r.ok) return { error: r.error };
    const x = JSON.parse(r.json) as { u: string; c?: string; s: string };
    return { move: parseUci(x.u)!, uci: x.u, uciStandard: x.c, san: x.s };
  }
}
