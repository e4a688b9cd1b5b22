// The engine as the page uses it (types.ts): a Web Worker running the WebAssembly engine.
// A new position replaces the old search at once: a busy worker is ended and a spare one,
// started beforehand from the already compiled module and warmed up, takes the new search, so
// neither a deep iteration nor a worker's start delays the next position. A new spare is
// started a moment later, off the critical path.

import { initRules } from '../rules/wasm';
import type { FromWorker, ToWorker } from './protocol';
import type { AnalyseOptions, BrowserEngineApi, EngineReport } from './types';

/** Transposition table size of the browser engine, in MB. */
const HASH_MB = 16;

interface Running {
  worker: Worker;
  ready: Promise<void>;
  busy: boolean;
}

/** How long after a replacement the next spare worker is started (ms): the new search's
 * first iterations come first. */
const SPARE_DELAY_MS = 300;

export class BrowserEngine implements BrowserEngineApi {
  private running: Running | null = null;
  private spare: Running | null = null;
  private spareTimer: ReturnType<typeof setTimeout> | null = null;
  private searchId = 0;
  private onReport: ((r: EngineReport) => void) | null = null;
  private disposed = false;

  /** Resolves once the WebAssembly module is loaded in the worker. */
  ready(): Promise<void> {
    return this.spawn().ready;
  }

  analyse(fen: string, options: AnalyseOptions, onReport: (report: EngineReport) => void): void {
    if (this.disposed) return;
    if (this.running?.busy) this.kill();
    if (!this.running && this.spare) {
      this.running = this.spare;
      this.spare = null;
    }
    const run = this.spawn();
    this.planSpare();
    const id = ++this.searchId;
    this.onReport = onReport;
    run.busy = true;
    const msg: ToWorker = {
      type: 'analyse',
      id,
      fen,
      multiPv: Math.min(5, Math.max(1, Math.floor(options.multiPv || 1))),
      chess960: options.chess960,
      maxDepth: options.maxDepth,
      hashMb: HASH_MB,
    };
    run.ready.then(
      () => {
        if (this.running === run && this.searchId === id) run.worker.postMessage(msg);
      },
      (err: unknown) => {
        if (this.searchId === id) onReport({ fen, depth: 0, lines: [], nodes: 0, nps: 0, done: true, error: String(err) });
      },
    );
  }

  stop(): void {
    this.searchId++;
    this.onReport = null;
    if (this.running?.busy) this.kill();
  }

  dispose(): void {
    this.stop();
    this.kill();
    if (this.spareTimer) clearTimeout(this.spareTimer);
    this.spare?.worker.terminate();
    this.spare = null;
    this.disposed = true;
  }

  /** Starts a spare worker soon, if there is none. */
  private planSpare(): void {
    if (this.spare || this.spareTimer) return;
    this.spareTimer = setTimeout(() => {
      this.spareTimer = null;
      if (!this.disposed && !this.spare) this.spare = this.newWorker();
    }, SPARE_DELAY_MS);
  }

  private kill(): void {
    this.running?.worker.terminate();
    this.running = null;
  }

  private spawn(): Running {
    if (!this.running) this.running = this.newWorker();
    return this.running;
  }

  private newWorker(): Running {
    const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
    let resolve!: () => void;
    let reject!: (e: Error) => void;
    const ready = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    ready.catch(() => {}); // reported to the search waiting for it, if any
    const run: Running = { worker, ready, busy: false };
    worker.onmessage = (e: MessageEvent<FromWorker>) => {
      const msg = e.data;
      if (msg.type === 'ready') resolve();
      else if (msg.type === 'failed') reject(new Error(msg.message));
      else if (msg.type === 'report') {
        if (msg.id !== this.searchId || this.running !== run) return;
        if (msg.report.done) run.busy = false;
        this.onReport?.(msg.report);
      }
    };
    worker.onerror = (e) => reject(new Error(e.message));
    // The page compiled the module at start-up (main.ts); the worker gets it compiled.
    initRules().then(
      (module) => worker.postMessage({ type: 'init', module, hashMb: HASH_MB } satisfies ToWorker),
      (err: unknown) => reject(err instanceof Error ? err : new Error(String(err))),
    );
    return run;
  }
}
