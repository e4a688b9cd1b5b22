// Where the analysis board gets its browser engine from (the WebAssembly worker's client).

import type { BrowserEngineApi } from '../engine/types';

/** Starts the browser engine; rejects when it cannot be started here. */
export async function startEngine(): Promise<BrowserEngineApi> {
  throw new Error('the browser engine is not built yet');
}
