// The rules core (web/src/rules/arbiter.wasm, built by scripts/build-wasm.sh) for the tests'
// own use in Node, through the module's raw ABI as web/src/rules/wasm.ts calls it.

import { readFileSync } from 'node:fs';

const bytes = readFileSync(new URL('../src/rules/arbiter.wasm', import.meta.url));
const { instance } = await WebAssembly.instantiate(bytes, { arbiter: { now_ms: () => performance.now(), report: () => {} } });
const x = instance.exports;

function call(op, args) {
  const input = new TextEncoder().encode(args.join('\n'));
  const ptr = x.arbiter_input(input.length);
  new Uint8Array(x.memory.buffer, ptr, input.length).set(input);
  const status = x[`arbiter_${op}`]();
  const out = new TextDecoder().decode(new Uint8Array(x.memory.buffer, x.arbiter_output_ptr(), x.arbiter_output_len()));
  if (status !== 0) throw new Error(`${op}: ${out}`);
  return JSON.parse(out);
}

/** The legal moves of `fen`: `[{ u: UCI (castling king takes rook), c?: e1g1 form, s: SAN }]`. */
export function legalMoves(fen) {
  return call('moves', [fen, 'chess960']);
}
