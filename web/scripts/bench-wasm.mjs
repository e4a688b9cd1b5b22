// The WebAssembly engine in headless Chromium beside the same code built natively, on the same
// positions and depth (arbiter-engine's bench, a fresh 16 MB engine per position), alternating
// native and WebAssembly runs; then perft (legal-move generation) the same way. Both sides must
// count the same nodes (the bench's node count is the engine's signature).
//
// Usage (from web/; builds the module with scripts/build-wasm.sh first):
//   node scripts/bench-wasm.mjs [--depth 12] [--reps 3] [--perft-depth 5]
// The native side is `cargo run --release -p arbiter-wasm --example native` (built first).

import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const opt = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const depth = opt('depth', 12);
const reps = opt('reps', 3);
const perftDepth = opt('perft-depth', 5);
const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';

const cargo = ['run', '--quiet', '--release', '-p', 'arbiter-wasm', '--example', 'native', '--'];
// Both sides from the same sources, now.
execFileSync('bash', [join(here, 'build-wasm.sh')], { stdio: 'inherit' });
execFileSync('cargo', ['build', '--quiet', '--release', '-p', 'arbiter-wasm', '--example', 'native'], { cwd: repo, stdio: 'inherit' });
const native = (...args) => JSON.parse(execFileSync('cargo', [...cargo, ...args], { cwd: repo, encoding: 'utf8' }));

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-renderer-backgrounding', '--disable-background-timer-throttling'],
});
const page = await browser.newPage();
const wasm = readFileSync(join(repo, 'web', 'src', 'rules', 'arbiter.wasm')).toString('base64');
// The module instantiated in the page exactly as web/src/rules/wasm.ts does.
await page.evaluate(async (b64) => {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  let x;
  const { instance } = await WebAssembly.instantiate(bytes, {
    arbiter: { now_ms: () => performance.now(), report: () => {} },
  });
  x = instance.exports;
  window.call = (op, args) => {
    const input = new TextEncoder().encode(args.join('\n'));
    const ptr = x.arbiter_input(input.length);
    new Uint8Array(x.memory.buffer, ptr, input.length).set(input);
    const t = performance.now();
    const status = x[`arbiter_${op}`]();
    const ms = performance.now() - t;
    const out = new TextDecoder().decode(new Uint8Array(x.memory.buffer, x.arbiter_output_ptr(), x.arbiter_output_len()));
    if (status !== 0) throw new Error(out);
    return { nodes: JSON.parse(out).nodes, ms };
  };
}, wasm);
// CPU time of Chromium's renderer processes (utime + stime of /proc/PID/stat, in ms), so that
// other processes on a shared machine do not count.
const browserPid = browser.process?.()?.pid;
function rendererCpuMs() {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('--type=renderer')) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppidChain = Number(fields[1]);
      if (browserPid && !isDescendant(Number(pid), browserPid, ppidChain)) continue;
      total += ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
    } catch {
      /* gone */
    }
  }
  return total;
}
function isDescendant(pid, ancestor, ppid) {
  for (let p = ppid, i = 0; p > 1 && i < 10; i++) {
    if (p === ancestor) return true;
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      p = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      return false;
    }
  }
  return false;
}
const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
async function inWasm(op, args) {
  const cpu0 = rendererCpuMs();
  const r = await page.evaluate(([op, args]) => window.call(op, args), [op, args]);
  return { ...r, cpu_ms: rendererCpuMs() - cpu0 };
}

const best = (xs) => Math.max(...xs);
const perSec = (nodes, ms) => nodes / (ms / 1000);
async function compare(label, nativeArgs, wasmOp, wasmArgs) {
  const n = [];
  const w = [];
  for (let i = 0; i < reps; i++) {
    n.push(native(...nativeArgs));
    w.push(await inWasm(wasmOp, wasmArgs));
  }
  if (n.some((r) => r.nodes !== n[0].nodes) || w.some((r) => r.nodes !== n[0].nodes)) {
    throw new Error(`${label}: node counts differ: native ${n.map((r) => r.nodes)}, wasm ${w.map((r) => r.nodes)}`);
  }
  const fmt = (x) => (x / 1e6).toFixed(3);
  const nWall = best(n.map((r) => perSec(r.nodes, r.ms)));
  const wWall = best(w.map((r) => perSec(r.nodes, r.ms)));
  const nCpu = best(n.map((r) => perSec(r.nodes, r.cpu_ms ?? r.ms)));
  const wCpu = best(w.map((r) => perSec(r.nodes, Math.max(r.cpu_ms, 1))));
  console.log(`${label}: ${n[0].nodes} nodes (the same in both)`);
  console.log(`  native:                     ${fmt(nCpu)} M nodes/s of CPU time, ${fmt(nWall)} M/s of wall time`);
  console.log(`  WebAssembly in Chromium:    ${fmt(wCpu)} M nodes/s of CPU time, ${fmt(wWall)} M/s of wall time`);
  console.log(`  WebAssembly / native (CPU): ${((wCpu / nCpu) * 100).toFixed(0)} %`);
}

console.log(`${cpus()[0].model}, ${cpus().length} CPUs, Chromium ${browser.version()}, load ${loadavg().map((l) => l.toFixed(1)).join(' ')}; best of ${reps} alternated runs`);
await inWasm('perft', [KIWIPETE, 'chess960', 3]); // warm-up: lets V8 optimise the module
await compare(`engine bench, depth ${depth}`, ['bench', String(depth)], 'bench', [depth]);
await compare(`perft ${perftDepth} of kiwipete (legal-move generation)`, ['perft', String(perftDepth), KIWIPETE], 'perft', [KIWIPETE, 'chess960', perftDepth]);
console.log(`load afterwards ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
await browser.close();
