// Messages between the engine client (page) and the engine worker.

/** Page → worker. */
export type ToWorker =
  | { type: 'init'; module: WebAssembly.Module; hashMb: number }
  | { type: 'analyse'; id: number; fen: string; multiPv: number; chess960: boolean; maxDepth?: number; hashMb: number };

/** Worker → page. */
export type FromWorker =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'report'; id: number; report: import('./types').EngineReport };
