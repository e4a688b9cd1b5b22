// The engine's Web Worker: the rules core and engine WebAssembly module (compiled once by the
// page and passed in), one search at a time, with one engine kept between searches. A search runs to its end inside one call into
// the module, reporting each completed iteration through the module's `report` import; the
// page stops a search by ending this worker (client.ts), which is immediate whatever the
// depth.

import { callRules, initRules } from '../rules/wasm';
import type { FromWorker, ToWorker } from './protocol';
import type { EngineLine, EngineReport } from './types';

const scope = self as unknown as {
  postMessage(m: FromWorker): void;
  onmessage: ((e: MessageEvent<ToWorker>) => void) | null;
};

const WARM_UP_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

interface Iteration {
  depth: number;
  lines: EngineLine[];
  nodes: number;
  ms: number;
}

function analyse(msg: Extract<ToWorker, { type: 'analyse' }>): void {
  const started = performance.now();
  let last: EngineReport | null = null;
  const post = (report: EngineReport) => scope.postMessage({ type: 'report', id: msg.id, report });
  const r = callRules('search', [msg.fen, msg.chess960 ? 'chess960' : 'standard', msg.maxDepth ?? 0, msg.multiPv, msg.hashMb], (json) => {
    const it = JSON.parse(json) as Iteration;
    const ms = Math.max(performance.now() - started, 1);
    last = { fen: msg.fen, depth: it.depth, lines: it.lines, nodes: it.nodes, nps: Math.round((it.nodes * 1000) / ms), done: false };
    post(last);
  });
  if (!r.ok) {
    post({ fen: msg.fen, depth: 0, lines: [], nodes: 0, nps: 0, done: true, error: r.error });
    return;
  }
  const end = JSON.parse(r.json) as { depth: number; nodes: number };
  const ms = Math.max(performance.now() - started, 1);
  const final: EngineReport = last ?? { fen: msg.fen, depth: end.depth, lines: [], nodes: 0, nps: 0, done: true };
  post({ ...final, nodes: end.nodes, nps: Math.round((end.nodes * 1000) / ms), done: true });
}

scope.onmessage = (e) => {
  const msg = e.data;
  if (msg.type === 'init') {
    initRules(msg.module).then(
      () => {
        // A depth-1 search before saying ready: the engine's table is allocated (and the
        // module's memory grown) now, not when the first position is waiting.
        callRules('search', [WARM_UP_FEN, 'standard', 1, 1, msg.hashMb]);
        scope.postMessage({ type: 'ready' });
      },
      (err: unknown) => scope.postMessage({ type: 'failed', message: String(err) }),
    );
  } else if (msg.type === 'analyse') {
    analyse(msg);
  }
};
