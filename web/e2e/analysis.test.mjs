// The analysis board in the browser (issue 17): a finished game's board stepped through with
// keys, a variation added on the board and shown in the move list and the PGN, the FEN copied;
// the WebAssembly engine's lines on /analysis, changing after a move; the evaluation graph and
// the marks of a game analysed by the server.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { useServerAndBrowser, person, clickMove, waitFor, shot, arbiterBin } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));

/** The server's computer analysis takes a node budget on the command line once it exists. */
function analysisArgs() {
  try {
    const help = execFileSync(arbiterBin(), ['serve', '--help'], { encoding: 'utf8' });
    if (help.includes('--analysis-nodes')) return ['--analysis-nodes', '3000'];
    if (help.includes('--analysis-depth')) return ['--analysis-depth', '4'];
  } catch {
    /* the harness reports a missing binary */
  }
  return [];
}

const env = useServerAndBrowser(analysisArgs());

// Scholar's mate: 3... Nf6?? lets White mate at once (python-chess: checkmate after 4. Qxf7#).
const SCHOLAR = ['e2e4', 'e7e5', 'f1c4', 'b8c6', 'd1h5', 'g8f6', 'h5f7'];
const SCHOLAR_SAN = ['e4', 'e5', 'Bc4', 'Nc6', 'Qh5', 'Nf6', 'Qxf7#'];
// python-chess: after 1. e4 e5 2. Bc4 Nf6 (the variation added in the test).
const FEN_AFTER_NF6 = 'rnbqkb1r/pppp1ppp/5n2/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR w KQkq - 2 3';
const FEN_AFTER_BC4 = 'rnbqkbnr/pppp1ppp/8/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 2';

async function call(method, path, body, token) {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(env.server.base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** A game played to the end through the API by two anonymous players. */
async function playedGame(moves) {
  const white = await call('POST', '/api/games', { time_control: '10+5', variant: 'standard', color: 'white' });
  const black = await call('POST', `/api/games/${white.id}/join`, {});
  for (let i = 0; i < moves.length; i++) {
    await call('POST', `/api/games/${white.id}/move`, { move: moves[i] }, i % 2 === 0 ? white.token : black.token);
  }
  const state = await call('GET', `/api/games/${white.id}`);
  assert.equal(state.status, 'finished');
  return white.id;
}

const shownMoves = (page) => page.locator('[data-testid=an-moves] .an-move:not(.empty) .an-san').allTextContents();
const fenShown = (page) => page.locator('[data-testid=an-fen]').inputValue();

test('a finished game on the analysis board: keys, a variation, the FEN copied', async () => {
  const id = await playedGame(SCHOLAR);
  const { ctx, page } = await person(env.browser);
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.base });
  await page.goto(`${env.server.base}/game/${id}`);
  await page.locator('[data-testid=analysis-board]').click();
  await page.waitForURL(`${env.server.base}/game/${id}/analysis`);
  await waitFor(async () => (await shownMoves(page)).length === SCHOLAR.length, 'the game as the main line');
  assert.deepEqual(await shownMoves(page), SCHOLAR_SAN);
  assert.equal((await page.locator('[data-testid=an-result]').textContent()).trim(), '1-0');

  // Keys: Home is the start, → → → is 2. Bc4, End the mate, ← one back.
  await page.keyboard.press('Home');
  assert.equal(await fenShown(page), 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  assert.equal(await fenShown(page), FEN_AFTER_BC4);
  assert.equal((await page.locator('.an-move.active .an-san').textContent()).trim(), 'Bc4');
  await page.keyboard.press('End');
  assert.equal((await page.locator('.an-move.active .an-san').textContent()).trim(), 'Qxf7#');
  await page.keyboard.press('ArrowLeft');
  assert.equal((await page.locator('.an-move.active .an-san').textContent()).trim(), 'Nf6');

  // Back to 2. Bc4 by a click on it, then 2... Nf6 on the board: a variation beside 2... Nc6.
  await page.locator('.an-move', { hasText: 'Bc4' }).first().click();
  assert.equal(await fenShown(page), FEN_AFTER_BC4);
  await clickMove(page, 'g8f6');
  await waitFor(async () => (await fenShown(page)) === FEN_AFTER_NF6, 'the variation played');
  assert.equal((await page.locator('[data-testid=an-moves] .an-variations .an-move.active').textContent()).replace(/\s+/g, ''), '2...Nf6');
  assert.deepEqual(await shownMoves(page), ['e4', 'e5', 'Bc4', 'Nc6', 'Nf6', 'Qh5', 'Nf6', 'Qxf7#']);
  const pgn = await page.locator('[data-testid=an-pgn]').inputValue();
  assert.match(pgn, /2\. Bc4 Nc6 \(2\.\.\. Nf6\) 3\. Qh5 Nf6 4\. Qxf7# 1-0/);
  assert.match(pgn, /\[Result "1-0"\]/);

  // ↑ goes to the main line's move at that point, ↓ back to the variation.
  await page.keyboard.press('ArrowUp');
  assert.equal((await page.locator('.an-move.active .an-san').textContent()).trim(), 'Nc6');
  await page.keyboard.press('ArrowDown');
  assert.equal(await fenShown(page), FEN_AFTER_NF6);

  await page.locator('[data-testid=copy-fen]').click();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), FEN_AFTER_NF6);
  await shot(page, 'analysis-game-variation');

  // The move menu: the variation made the main line, then deleted.
  await page.locator('[data-testid=an-moves] .an-variations .an-move').first().click({ button: 'right' });
  await page.locator('[data-testid=make-mainline]').click();
  assert.deepEqual((await shownMoves(page)).slice(0, 5), ['e4', 'e5', 'Bc4', 'Nf6', 'Nc6']);
  assert.match(await page.locator('[data-testid=an-pgn]').inputValue(), /2\. Bc4 Nf6 \(2\.\.\. Nc6 3\. Qh5 Nf6 4\. Qxf7#\)/);
  await page.locator('.an-move', { hasText: 'Nf6' }).first().click({ button: 'right' });
  await page.locator('[data-testid=delete-from-here]').click();
  assert.deepEqual(await shownMoves(page), SCHOLAR_SAN);
  assert.equal(await fenShown(page), FEN_AFTER_BC4);
  await ctx.close();
});

test('a bad FEN is reported with what is wrong, and the board stays', async () => {
  const { ctx, page } = await person(env.browser);
  await page.goto(`${env.server.base}/analysis?fen=${encodeURIComponent('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1')}`);
  await waitFor(async () => !(await page.locator('[data-testid=fen-error]').isHidden()), 'the error');
  assert.match(await page.locator('[data-testid=fen-error]').textContent(), /Bad FEN: .+/);
  assert.equal(await fenShown(page), 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
  // A good FEN typed in the box opens that position.
  await page.locator('[data-testid=fen-input]').fill(FEN_AFTER_BC4);
  await page.locator('[data-testid=fen-form] button[type=submit]').click();
  await waitFor(async () => (await fenShown(page)) === FEN_AFTER_BC4, 'the loaded position');
  // A bad one changes nothing.
  await page.locator('[data-testid=fen-input]').fill('8/8/8/8/8/8/8/8 w - - 0 1');
  await page.locator('[data-testid=fen-form] button[type=submit]').click();
  await waitFor(async () => !(await page.locator('[data-testid=fen-error]').isHidden()), 'the second error');
  assert.equal(await fenShown(page), FEN_AFTER_BC4);
  await ctx.close();
});

test('the WebAssembly engine shows its lines on /analysis and follows the moves', async (t) => {
  if (!existsSync(join(here, '..', 'src', 'engine', 'client.ts'))) {
    t.skip('the browser engine (web/src/engine/client.ts) is not in this tree yet');
    return;
  }
  const { ctx, page } = await person(env.browser);
  await page.goto(`${env.server.base}/analysis`);
  await page.locator('[data-testid=engine-toggle]').check();
  await waitFor(async () => (await page.locator('[data-testid=engine-line]').count()) > 0, 'engine lines', 30000);
  await waitFor(async () => Number((await page.locator('[data-testid=engine-depth]').textContent()).replace(/\D/g, '')) >= 4, 'depth 4', 30000);
  const before = await page.locator('[data-testid=engine-line]').first().textContent();
  // A legal first move of White in the line (SAN, English letters).
  assert.match(before, /^[+\u2212]?[0-9.#]+\s*([a-h][1-8]|N[a-h][1-8])/);
  await clickMove(page, 'e2e4');
  await waitFor(async () => (await fenShown(page)).startsWith('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b'), 'e4 played');
  await waitFor(async () => {
    const line = await page.locator('[data-testid=engine-line]').first().textContent().catch(() => '');
    // Black's replies now: a move of Black's pieces from the position after 1. e4.
    return line && line !== before && /^[+\u2212]?[0-9.#]+\s*([a-h][1-8]|[a-h]x|N[a-h])/.test(line) ? line : null;
  }, 'new lines after e4', 30000);
  // A click on a line's first move plays it on the board.
  // (Read and clicked in one step: the lines change as the search deepens.)
  const reply = await page.evaluate(() => {
    const b = document.querySelector('[data-testid=engine-move]');
    const text = b.textContent.trim();
    b.click();
    return text;
  });
  await waitFor(async () => (await shownMoves(page)).join(' ') === `e4 ${reply}`, 'the engine move played');
  await shot(page, 'analysis-engine');
  // The choice is remembered.
  await page.reload();
  assert.equal(await page.locator('[data-testid=engine-toggle]').isChecked(), true);
  await ctx.close();
});

test('the server’s analysis of a game with a blunder: graph, marks, the better move', async (t) => {
  const id = await playedGame(SCHOLAR);
  const { ctx, page } = await person(env.browser);
  await page.goto(`${env.server.base}/game/${id}/analysis`);
  await page.locator('[data-testid=computer-panel]').waitFor();
  // Anonymous: asked to sign in.
  await page.locator('[data-testid=analysis-sign-in]').waitFor();
  const status = await page.evaluate(async () => (await fetch('/api/account', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: 'ana', password: 'correct horse battery' }) })).status);
  assert.ok(status === 200 || status === 201, `sign-up: ${status}`);
  // The API document lists the analysis paths once the server has them.
  const openapi = await (await fetch(`${env.server.base}/api/openapi.json`)).json();
  if (!openapi.paths?.['/api/games/{id}/analysis']) {
    t.skip('the server has no computer analysis yet');
    await ctx.close();
    return;
  }
  await page.reload();
  await page.locator('[data-testid=request-analysis]').click();
  await page.locator('[data-testid=analysis-done]').waitFor({ timeout: 120000 });
  await page.locator('[data-testid=eval-graph]').waitFor();
  assert.ok((await page.locator('[data-testid=eval-mark]').count()) >= 1, 'a mark on the graph');
  // 3... Nf6?? is a blunder: marked in the move list, the better move named.
  const blunder = page.locator('.an-move.blunder');
  assert.ok((await blunder.count()) >= 1, 'a blunder in the move list');
  await blunder.first().click();
  assert.match(await page.locator('[data-testid=an-comment]').textContent(), /Blunder.* was best/);
  assert.ok((await page.locator('[data-testid=analysis-summary]').count()) === 1);
  // A click on the graph's left edge goes to the start.
  await page.locator('[data-testid=eval-graph]').scrollIntoViewIfNeeded();
  const box = await page.locator('[data-testid=eval-graph]').boundingBox();
  await page.mouse.click(box.x + 2, box.y + box.height / 2);
  assert.equal(await fenShown(page), 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
  const evals = await (await fetch(`${env.server.base}/api/games/${id}/pgn?evals=true`)).text();
  assert.match(evals, /\[%eval/);
  await blunder.first().click();
  await shot(page, 'analysis-computer');
  await ctx.close();
});

/** A finished analysis of Scholar's mate as the API contract describes it: 3... Nf6?? marked a
 * blunder with 3... g6 as the better move. */
function contractAnalysis() {
  const evals = [{ cp: 25 }, { cp: 30 }, { cp: 20 }, { cp: 35 }, { cp: 30 }, { cp: 25 }, { mate: 1 }, { mate: 0 }];
  const best = [['e2e4', 'e4'], ['e7e5', 'e5'], ['g1f3', 'Nf3'], ['b8c6', 'Nc6'], ['d1h5', 'Qh5'], ['g7g6', 'g6'], ['h5f7', 'Qxf7#'], null];
  return {
    state: 'done',
    engine: 'arbiter 0.1.0',
    depth: 8,
    progress: { done: 8, total: 8 },
    queue_position: null,
    error: null,
    positions: evals.map((e, ply) => ({ ply, eval: e, best: best[ply] && { uci: best[ply][0], san: best[ply][1] }, pv: best[ply] ? [best[ply][0]] : [], depth: 8 })),
    moves: SCHOLAR.map((uci, i) => ({
      ply: i + 1,
      uci,
      san: SCHOLAR_SAN[i],
      loss: i === 5 ? 1000 : 5,
      win_loss: i === 5 ? 1 : 0.01,
      mark: i === 5 ? 'blunder' : null,
      better: i === 5 ? { uci: 'g7g6', san: 'g6' } : null,
    })),
    summary: {
      white: { acpl: 5, inaccuracies: 0, mistakes: 0, blunders: 0, accuracy: 98.5 },
      black: { acpl: 336, inaccuracies: 0, mistakes: 0, blunders: 1, accuracy: 41.2 },
    },
  };
}

test('the computer analysis as the API contract gives it: progress, graph, marks, better move', async () => {
  const id = await playedGame(SCHOLAR);
  const { ctx, page } = await person(env.browser);
  // The server's answers replaced by the contract's: queued, running, then done.
  const states = [
    { state: 'queued', engine: 'arbiter 0.1.0', depth: 8, progress: { done: 0, total: 8 }, queue_position: 2, error: null, positions: [], moves: [], summary: null },
    { state: 'running', engine: 'arbiter 0.1.0', depth: 8, progress: { done: 3, total: 8 }, error: null, positions: contractAnalysis().positions.slice(0, 3), moves: [], summary: null },
    contractAnalysis(),
  ];
  let requested = false;
  let polls = 0;
  await page.route(`**/api/games/${id}/analysis`, async (route) => {
    if (route.request().method() === 'POST') {
      requested = true;
      return route.fulfill({ status: 202, contentType: 'application/json', body: JSON.stringify(states[0]) });
    }
    if (!requested) return route.fulfill({ status: 404, contentType: 'application/json', body: '{"error":"not_found","message":"no analysis"}' });
    const s = states[Math.min(states.length - 1, polls++)];
    return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(s) });
  });
  await page.goto(`${env.server.base}/`);
  await page.evaluate(async () => fetch('/api/account', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: 'bea', password: 'correct horse battery' }) }));
  await page.goto(`${env.server.base}/game/${id}/analysis`);
  await page.locator('[data-testid=request-analysis]').click();
  await waitFor(async () => /3 \/ 8/.test((await page.locator('[data-testid=analysis-progress]').textContent().catch(() => '')) ?? ''), 'progress 3 / 8');
  await page.locator('[data-testid=analysis-done]').waitFor();
  await page.locator('[data-testid=eval-graph]').waitFor();
  assert.equal(await page.locator('[data-testid=eval-mark]').count(), 1);
  assert.equal(await page.locator('[data-testid=eval-mark]').getAttribute('data-ply'), '6');
  assert.equal(await page.locator('[data-testid=eval-mark] title').textContent(), '3... Nf6?? #1');
  // The blunder in the move list: 3... Nf6 with ??, and the better move named and drawn.
  const blunder = page.locator('.an-move.blunder');
  assert.equal(await blunder.count(), 1);
  assert.equal((await blunder.textContent()).replace(/\s+/g, ''), 'Nf6??');
  await blunder.click();
  assert.equal((await page.locator('[data-testid=an-comment]').textContent()).trim(), 'Blunder (??) g6 was best.');
  // The better move's arrow (the engine is off: the only shape on the board).
  await waitFor(async () => (await page.locator('svg.cg-shapes line').count()) === 1, 'the arrow of g6');
  assert.match(await page.locator('[data-testid=analysis-summary]').textContent(), /41\.2 %/);
  assert.match(await page.locator('[data-testid=evals-pgn]').getAttribute('href'), new RegExp(`/api/games/${id}/pgn\\?evals=true$`));
  // A click in the graph's middle goes to the ply there (4 of 7), on the game's line.
  await page.locator('[data-testid=eval-graph]').scrollIntoViewIfNeeded();
  const box = await page.locator('[data-testid=eval-graph]').boundingBox();
  await page.mouse.click(box.x + (box.width * 4) / 7, box.y + box.height / 2);
  assert.equal((await page.locator('.an-move.active .an-san').textContent()).trim(), 'Nc6');
  await shot(page, 'analysis-contract');
  await ctx.close();
});

test('a running game: spectators get the analysis board, its players do not', async () => {
  const white = await call('POST', '/api/games', { time_control: '10+5', variant: 'standard', color: 'white' });
  const black = await call('POST', `/api/games/${white.id}/join`, {});
  await call('POST', `/api/games/${white.id}/move`, { move: 'e2e4' }, white.token);
  await call('POST', `/api/games/${white.id}/move`, { move: 'e7e5' }, black.token);

  const player = await person(env.browser);
  await player.page.goto(`${env.server.base}/`);
  // The seat token kept in this browser, as the game page keeps it.
  await player.page.evaluate(([id, token]) => localStorage.setItem(`arbiter.seat.${id}`, JSON.stringify({ seat: 'white', token })), [white.id, white.token]);
  await player.page.goto(`${env.server.base}/game/${white.id}`);
  await player.page.locator('[data-testid=resign]').waitFor();
  assert.equal(await player.page.locator('[data-testid=analysis-board]').count(), 0);
  await player.page.goto(`${env.server.base}/game/${white.id}/analysis`);
  await player.page.locator('[data-testid=analysis-closed]').waitFor();
  assert.equal(await player.page.locator('[data-testid=board]').count(), 0);

  const spectator = await person(env.browser);
  await spectator.page.goto(`${env.server.base}/game/${white.id}`);
  await spectator.page.locator('[data-testid=analysis-board]').click();
  await waitFor(async () => (await shownMoves(spectator.page)).join(' ') === 'e4 e5', 'the moves so far');
  assert.equal(await spectator.page.locator('[data-testid=computer-panel]').count(), 0);
  await player.ctx.close();
  await spectator.ctx.close();
});

test('the opening of the deepest named position, and the tree kept across a reload', async () => {
  const { ctx, page } = await person(env.browser);
  // The openings endpoint's answers as its contract gives them: a name for two positions only.
  const names = new Map([
    ['rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -', { eco: 'B00', name: "King's Pawn Game" }],
    ['rnbqkbnr/pppp1ppp/8/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR b KQkq -', { eco: 'C23', name: "Bishop's Opening" }],
  ]);
  await page.route('**/api/openings?*', (route) => {
    const fen = new URL(route.request().url()).searchParams.get('fen').split(' ').slice(0, 4).join(' ');
    return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(names.get(fen) ?? null) });
  });
  await page.goto(`${env.server.base}/analysis`);
  for (const m of ['e2e4', 'e7e5', 'f1c4', 'g8f6']) {
    const before = await fenShown(page);
    await clickMove(page, m);
    await waitFor(async () => (await fenShown(page)) !== before, m);
  }
  // After 2... Nf6 no name of its own: the deepest named position on the way.
  await waitFor(async () => (await page.locator('[data-testid=an-opening]').textContent()) === "C23 Bishop's Opening", 'the opening');
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await waitFor(async () => (await page.locator('[data-testid=an-opening]').textContent()) === "B00 King's Pawn Game", 'after 1. e4');
  await page.reload();
  await waitFor(async () => (await shownMoves(page)).join(' ') === 'e4 e5 Bc4 Nf6', 'the tree after a reload');
  await ctx.close();
});

test('a promotion chosen on the board, and a Chess960 start by number', async () => {
  const { ctx, page } = await person(env.browser);
  await page.goto(`${env.server.base}/analysis?fen=${encodeURIComponent('8/P7/8/8/8/8/k7/4K3 w - - 0 1')}`);
  await page.locator('[data-testid=board]').waitFor();
  await clickMove(page, 'a7a8');
  await page.locator('.promo [data-role=knight]').click();
  // python-chess: 1. a8=N from that position.
  await waitFor(async () => (await fenShown(page)) === 'N7/8/8/8/8/8/k7/4K3 b - - 0 1', 'the knight on a8');
  assert.equal((await page.locator('.an-move.active .an-san').textContent()).trim(), 'a8=N');

  await page.goto(`${env.server.base}/analysis?variant=chess960&position=0`);
  await page.locator('[data-testid=board]').waitFor();
  assert.match(await fenShown(page), /^bbqnnrkr\/pppppppp\/8\/8\/8\/8\/PPPPPPPP\/BBQNNRKR w /);
  const pgn = await page.locator('[data-testid=an-pgn]').inputValue();
  assert.match(pgn, /\[Variant "Chess960"\]/);
  assert.match(pgn, /\[FEN "bbqnnrkr\/pppppppp\/8\/8\/8\/8\/PPPPPPPP\/BBQNNRKR w /);
  await ctx.close();
});

test('a refused analysis request shows the server’s reason', async () => {
  const id = await playedGame(SCHOLAR);
  const { ctx, page } = await person(env.browser);
  await page.route(`**/api/games/${id}/analysis`, (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({ status: 429, contentType: 'application/json', body: JSON.stringify({ error: 'analysis_limit', message: 'at most 3 analyses queued per player' }) })
      : route.fulfill({ status: 404, contentType: 'application/json', body: '{"error":"not_found","message":"no analysis"}' }),
  );
  await page.goto(`${env.server.base}/`);
  await page.evaluate(async () => fetch('/api/account', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: 'cleo', password: 'correct horse battery' }) }));
  await page.goto(`${env.server.base}/game/${id}/analysis`);
  await page.locator('[data-testid=request-analysis]').click();
  await waitFor(async () => (await page.locator('[data-testid=analysis-error]').textContent().catch(() => '')) === 'at most 3 analyses queued per player', 'the limit named');
  // The button stays: the user may try again later.
  assert.equal(await page.locator('[data-testid=request-analysis]').isEnabled(), true);
  await ctx.close();
});
