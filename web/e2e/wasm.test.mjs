// The rules core and engine as WebAssembly in the browser (issue 17, item 4): the module is
// served as application/wasm (so it compiles while it downloads) and loaded once; legal-move
// hints on the board come from it; a deep search in the worker is replaced within moments when
// the position changes (the worker is ended and restarted, not asked to stop).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, person, clickMove, waitFor } from './harness.mjs';

const env = useServerAndBrowser();

test('the module is served as application/wasm and loaded once per page', async () => {
  const { ctx, page } = await person(env.browser);
  const wasm = [];
  page.on('response', (r) => {
    if (r.url().endsWith('.wasm')) wasm.push(r);
  });
  await page.goto(`${env.server.base}/analysis`);
  await page.locator('[data-testid=engine-toggle]').check();
  await waitFor(async () => (await page.locator('[data-testid=engine-line]').count()) > 0, 'engine lines', 30000);
  assert.equal(wasm.length, 1, 'fetched once: the worker gets the compiled module from the page');
  assert.equal(wasm[0].status(), 200);
  assert.equal(wasm[0].headers()['content-type'], 'application/wasm');
  assert.match(wasm[0].headers()['cache-control'], /immutable/);
  await ctx.close();
});

test('a new position replaces a deep search at once', async () => {
  const { ctx, page } = await person(env.browser);
  await page.goto(`${env.server.base}/analysis`);
  await page.locator('[data-testid=engine-toggle]').check();
  // Let the search get deep: its next iteration takes a while to finish.
  await waitFor(async () => Number((await page.locator('[data-testid=engine-depth]').textContent().catch(() => '')).replace(/\D/g, '')) >= 10, 'depth 10', 60000);
  // Times in the page: from the pointer release of the move to the first line for the new
  // position (a Black move: its target square on rank 5 or 6 after 1. e4).
  await page.evaluate(() => {
    const w = window;
    w.__moveAt = null;
    w.__linesAt = null;
    document.querySelector('cg-board').addEventListener('mouseup', () => (w.__moveAt ??= performance.now()), { capture: true });
    const lines = document.querySelector('[data-testid=engine-panel]');
    new MutationObserver(() => {
      const first = document.querySelector('[data-testid=engine-move]')?.textContent ?? '';
      if (w.__moveAt !== null && w.__linesAt === null && /[56][+#]?$/.test(first.trim())) w.__linesAt = performance.now();
    }).observe(lines, { childList: true, subtree: true, characterData: true });
  });
  await clickMove(page, 'e2e4');
  const ms = await waitFor(() => page.evaluate(() => (window.__linesAt !== null ? window.__linesAt - window.__moveAt : null)), 'lines after e4', 30000);
  console.log(`first engine line for the new position ${ms.toFixed(0)} ms after the move`);
  assert.ok(ms < 1500, `${ms} ms`);
  await ctx.close();
});

const fenShown = (page) => page.locator('[data-testid=an-fen]').inputValue();

test('castling on the board: two squares in standard chess, king takes rook in Chess960', async () => {
  const { ctx, page } = await person(env.browser);
  await page.goto(`${env.server.base}/analysis?fen=${encodeURIComponent('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1')}`);
  await page.locator('cg-board').waitFor();
  await clickMove(page, 'e1g1');
  await waitFor(async () => (await fenShown(page)).startsWith('r3k2r/8/8/8/8/8/8/R4RK1 b kq'), 'O-O by e1g1');
  // Guideline II: the king beside its rook castles by taking it (b1c1 would be a king move).
  // The FEN after it: python-chess (web/src/rules/vectors.json).
  const fen960 = 'rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1';
  await page.goto(`${env.server.base}/analysis?variant=chess960&fen=${encodeURIComponent(fen960)}`);
  await page.locator('cg-board').waitFor();
  await clickMove(page, 'b1a1');
  await waitFor(async () => (await fenShown(page)).startsWith('rk5r/8/8/8/8/8/8/2KR3R b'), 'O-O-O by b1a1');
  await ctx.close();
});

test('a bad FEN is refused with the rules core\'s words, naming the field', async () => {
  const { ctx, page } = await person(env.browser);
  await page.goto(`${env.server.base}/analysis`);
  await page.locator('[data-testid=fen-input]').fill('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1');
  await page.locator('[data-testid=fen-form] button').click();
  await waitFor(async () => /field 2/.test(await page.locator('[data-testid=fen-error]').textContent()), 'the error');
  assert.equal(await fenShown(page), 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'nothing changed');
  await ctx.close();
});
