// Test harness: starts `arbiter serve` on a fresh database and Debian's headless Chromium
// (playwright-core, never a downloaded browser), and drives the board like a person.

import { spawn } from 'node:child_process';
import { before, after } from 'node:test';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');

/** The arbiter binary: $ARBITER_BIN, else target/debug/arbiter of the repository, else its
 * target/ci/arbiter (`cargo build --profile ci -p arbiter`). */
export function arbiterBin() {
  const candidates = [process.env.ARBITER_BIN, join(repo, 'target', 'debug', 'arbiter'), join(repo, 'target', 'ci', 'arbiter')].filter(Boolean);
  for (const c of candidates) if (existsSync(c)) return c;
  throw new Error(`no arbiter binary (set ARBITER_BIN); tried ${candidates.join(', ')}`);
}

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** `extraArgs`: more arguments of `arbiter serve` (e.g. `--uci-engine NAME=PATH`). */
export async function startServer(extraArgs = []) {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-e2e-'));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const addr = `127.0.0.1:${port}`;
  const base = `http://${addr}`;
  let log = '';
  let proc;
  const spawnServer = async () => {
    proc = spawn(arbiterBin(), ['serve', '--addr', addr, '--db', join(dir, 'e2e.db'), ...extraArgs], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, RUST_LOG: process.env.RUST_LOG ?? 'warn' },
    });
    proc.stdout.on('data', (d) => (log += d));
    proc.stderr.on('data', (d) => (log += d));
    const deadline = Date.now() + 20000;
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`arbiter serve exited: ${log}`);
      try {
        const r = await fetch(`${base}/api/games`);
        if (r.ok) return;
      } catch {
        /* not yet */
      }
      if (Date.now() > deadline) throw new Error(`arbiter serve did not start: ${log}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const kill = async (signal) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    proc.kill(signal);
    await new Promise((r) => proc.once('exit', r));
  };
  await spawnServer();
  return {
    base,
    log: () => log,
    /** Kills the server (as a crash would) and starts it again on the same database. */
    async restart() {
      await kill('SIGKILL');
      await spawnServer();
    },
    async stop() {
      await kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function startBrowser() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // Several people share one browser here: keep pages that are not in front drawing.
      '--disable-renderer-backgrounding',
      '--disable-background-timer-throttling',
      '--disable-backgrounding-occluded-windows',
    ],
  });
}

/** A fresh browser context (its own storage: another person) with a language. */
export async function person(browser, { locale = 'en-GB', viewport = { width: 1280, height: 860 } } = {}) {
  const ctx = await browser.newContext({ locale, viewport, acceptDownloads: true });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.error(`[page error] ${e.message}`));
  return { ctx, page };
}

/** Clicks a square of the chessground board, whichever way it is turned. */
export async function clickSquare(page, key) {
  const box = await page.locator('cg-board').boundingBox();
  const white = await page.locator('.cg-wrap').evaluate((el) => el.classList.contains('orientation-white'));
  const file = key.charCodeAt(0) - 97;
  const rank = Number(key[1]) - 1;
  const col = white ? file : 7 - file;
  const row = white ? 7 - rank : rank;
  const sq = box.width / 8;
  await page.mouse.click(box.x + (col + 0.5) * sq, box.y + (row + 0.5) * sq);
}

/** Plays a move by two clicks (origin, destination). */
export async function clickMove(page, uci) {
  await clickSquare(page, uci.slice(0, 2));
  await clickSquare(page, uci.slice(2, 4));
}

/** The pieces chessground shows: { e1: 'white king', … }. */
export async function boardPieces(page) {
  return page.evaluate(() => {
    const out = {};
    for (const p of document.querySelectorAll('cg-board piece')) {
      if (p.classList.contains('ghost') || p.classList.contains('fading')) continue;
      const key = p.cgKey;
      const color = p.classList.contains('white') ? 'white' : 'black';
      const role = ['king', 'queen', 'rook', 'bishop', 'knight', 'pawn'].find((r) => p.classList.contains(r));
      if (key) out[key] = `${color} ${role}`;
    }
    return out;
  });
}

/** The move list as shown: ['f3', 'e5', …]. */
export async function moveList(page) {
  return page.locator('[data-testid=moves] .san:not(.empty)').allTextContents();
}

/** Milliseconds shown on a clock ("4:59", "0:09.3", "1:02:03"). */
export async function clockMs(page, color) {
  const text = (await page.locator(`[data-testid=clock-${color}]`).textContent()).trim();
  const [main, tenths] = text.split('.');
  const parts = main.split(':').map(Number);
  let s = 0;
  for (const p of parts) s = s * 60 + p;
  return s * 1000 + (tenths ? Number(tenths) * 100 : 0);
}

export async function waitFor(cond, what, timeout = 10000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const v = await cond();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function shot(page, name) {
  const dir = process.env.SHOTS;
  if (dir) await page.screenshot({ path: join(dir, `${name}.png`) });
}

/** Starts `arbiter serve` and Chromium before the tests of a file and stops them after;
 *  `env.server` and `env.browser` are set once the tests run. */
export function useServerAndBrowser(extraArgs = []) {
  const env = {};
  before(async () => {
    env.server = await startServer(extraArgs);
    env.browser = await startBrowser();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.stop();
  });
  return env;
}
