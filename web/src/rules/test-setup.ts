// vitest: loads the rules core from the file scripts/build-wasm.sh wrote (Node has no server
// to fetch it from) before any test runs.
import { initRules } from './wasm';

// A module name in a variable: the web UI's type check knows no Node types.
const fsModule: string = 'node:fs';
const { readFileSync } = (await import(/* @vite-ignore */ fsModule)) as { readFileSync(p: URL): Uint8Array };
await initRules(readFileSync(new URL('./arbiter.wasm', import.meta.url)));
