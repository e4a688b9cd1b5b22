// Where the analysis board gets its browser engine from: the WebAssembly worker's client.

import { BrowserEngine } from '../engine/client';
import type { BrowserEngineApi } from '../engine/types';

/** Starts the browser engine (its worker loads the module when first asked). */
export async function startEngine(): Promise<BrowserEngineApi> {
  return new BrowserEngine();
}
