// The browser engine's interface (issue 17, item 4): `arbiter-engine` compiled to WebAssembly,
// searching in a Web Worker so that analysis costs the visitor's CPU, not the server's.
// `client.ts` implements it; the analysis board uses only these types.

/** An evaluation from White's point of view: centipawns, or mate in N moves (N < 0: Black mates). */
export type EngineScore = { cp: number } | { mate: number };

/** One principal variation of a completed search iteration. */
export interface EngineLine {
  /** 1-based rank of the line (multi-PV). */
  multipv: number;
  /** Depth of the iteration that produced it. */
  depth: number;
  /** White's point of view. */
  score: EngineScore;
  /** The line in UCI (Chess960: king takes rook when `chess960`). */
  pv: string[];
  /** The same line in SAN (English letters). */
  san: string[];
}

/** What the analysis board asks for. */
export interface AnalyseOptions {
  /** Number of lines (1–5). */
  multiPv: number;
  /** Castling notation and rules of Chess960. */
  chess960: boolean;
  /** Stop after this depth (default: the engine's maximum; the board stops it when it leaves the position). */
  maxDepth?: number;
}

/** A progress report: every line of the latest completed iteration, best first. */
export interface EngineReport {
  /** The position analysed (as passed to `analyse`). */
  fen: string;
  depth: number;
  lines: EngineLine[];
  /** Nodes searched so far for this position, and nodes per second. */
  nodes: number;
  nps: number;
  /** True once the search has stopped by itself (max depth reached, or no legal move). */
  done: boolean;
  /** Why the position could not be analysed (a bad FEN, as the rules core names it); then
   * `done` and no lines. */
  error?: string;
}

/** The engine as the page sees it: one position at a time; a new `analyse` replaces the old one. */
export interface BrowserEngineApi {
  /** Resolves once the WebAssembly module is loaded in the worker. */
  ready(): Promise<void>;
  /** Starts analysing `fen`; `onReport` is called after every completed iteration. */
  analyse(fen: string, options: AnalyseOptions, onReport: (report: EngineReport) => void): void;
  /** Stops the current search (no further reports for it). */
  stop(): void;
  /** Ends the worker. */
  dispose(): void;
}
