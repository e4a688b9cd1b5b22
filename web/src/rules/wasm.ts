// The rules core and engine as WebAssembly (crates/wasm, built by scripts/build-wasm.sh): the
// module's raw ABI in a few lines. Arguments go in as lines of UTF-8 text written into the
// module's own input buffer; each operation answers JSON, or an error message, in its output
// buffer (crates/wasm/src/ffi.rs).

import wasmUrl from './arbiter.wasm?url';

/** The operations the module exports (`arbiter_<op>`). */
export type Op = 'position' | 'moves' | 'play' | 'san' | 'perft' | 'search' | 'bench';

interface Exports {
  memory: WebAssembly.Memory;
  arbiter_input(len: number): number;
  arbiter_output_ptr(): number;
  arbiter_output_len(): number;
  [op: string]: unknown;
}

let exports: Exports | null = null;
let compiled: WebAssembly.Module | null = null;
let reportHandler: ((json: string) => void) | null = null;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The module's URL (a hashed asset in the build). */
export const rulesWasmUrl = wasmUrl;

/** Compiles the module from its URL (streaming where the server says application/wasm). */
export async function compileRules(url: string = wasmUrl): Promise<WebAssembly.Module> {
  if (typeof WebAssembly.compileStreaming === 'function') {
    try {
      return await WebAssembly.compileStreaming(fetch(url));
    } catch {
      // Served with another Content-Type: compile from the bytes instead.
    }
  }
  const bytes = await (await fetch(url)).arrayBuffer();
  return WebAssembly.compile(bytes);
}

/** Loads the module once (from its URL, a compiled module, or its bytes); later calls reuse it. */
export async function initRules(source?: WebAssembly.Module | BufferSource): Promise<WebAssembly.Module> {
  if (exports && compiled) return compiled;
  const mod =
    source instanceof WebAssembly.Module ? source : source ? await WebAssembly.compile(source) : await compileRules();
  const imports = {
    arbiter: {
      now_ms: () => performance.now(),
      report: (ptr: number, len: number) => {
        const text = decoder.decode(new Uint8Array((exports as Exports).memory.buffer, ptr, len));
        reportHandler?.(text);
      },
    },
  };
  const instance = await WebAssembly.instantiate(mod, imports);
  exports = instance.exports as unknown as Exports;
  compiled = mod;
  return mod;
}

/** Whether `initRules` has finished. */
export function rulesReady(): boolean {
  return exports !== null;
}

/** Calls an operation with its arguments (one per line). `onReport` receives the progress
 * reports of `search` and `bench` while the call runs. */
export function callRules(op: Op, args: (string | number)[], onReport?: (json: string) => void): { ok: true; json: string } | { ok: false; error: string } {
  const x = exports;
  if (!x) throw new Error('the rules core is not loaded (initRules)');
  const bytes = encoder.encode(args.join('\n'));
  const ptr = x.arbiter_input(bytes.length);
  new Uint8Array(x.memory.buffer, ptr, bytes.length).set(bytes);
  reportHandler = onReport ?? null;
  let status: number;
  try {
    status = (x[`arbiter_${op}`] as () => number)();
  } finally {
    reportHandler = null;
  }
  const text = decoder.decode(new Uint8Array(x.memory.buffer, x.arbiter_output_ptr(), x.arbiter_output_len()));
  return status === 0 ? { ok: true, json: text } : { ok: false, error: text };
}
