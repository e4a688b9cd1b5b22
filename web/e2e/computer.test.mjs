// Play the computer in the browser: the create form's "Play against: the computer", level 1;
// the game starts at once (no invitation), the computer is named with its level, and its
// replies to moves made by clicks appear on the board.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { legalMoves } from './rules-core.mjs';
import { useServerAndBrowser, person, clickMove, boardPieces, moveList, waitFor, shot } from './harness.mjs';

const env = useServerAndBrowser();

/** A legal move for the side to move of `fen`: the first legal one of `wanted`, else any
 * legal move that is neither a castling nor a promotion (one click each way). */
function pickMove(fen, wanted) {
  const legal = legalMoves(fen)
    .filter((m) => m.u.length === 4 && !m.s.startsWith('O-O'))
    .map((m) => m.u);
  return wanted.find((m) => legal.includes(m)) ?? legal[0];
}

test('a game against the computer at level 1: it answers every move on the board', async () => {
  const { page } = await person(env.browser);
  await page.goto(env.server.base + '/');
  // The level appears only once "the computer" is chosen.
  assert.ok(await page.locator('[data-testid=level]').isHidden());
  await page.locator('[data-testid=opponent-computer]').check();
  await page.locator('[data-testid=level]').selectOption('1');
  await page.locator('label.color-white input').check();
  await shot(page, 'computer-form-desktop-en');
  await page.locator('[data-testid=create]').click();
  await page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  const id = page.url().split('/').pop();

  // Straight to the board: no invitation, the game runs, the opponent is the computer.
  await waitFor(async () => (await page.locator('[data-testid=status]').textContent()).includes('White to move'), 'game started');
  assert.ok(await page.locator('[data-testid=invite-link]').count() === 0, 'no invitation link');
  assert.match(await page.locator('.player.top .name').textContent(), /Black · Computer \(level 1\)/);
  assert.match(await page.locator('.player.bottom .name').textContent(), /White ★/);

  const wanted = ['e2e4', 'g1f3', 'f1c4', 'd2d3', 'b1c3', 'h2h3', 'a2a3'];
  for (let i = 0; i < 4; i++) {
    const state = await (await fetch(`${env.server.base}/api/games/${id}`)).json();
    assert.equal(state.turn, 'white');
    const m = pickMove(state.fen, wanted);
    await clickMove(page, m);
    // The computer's reply comes back by itself and is drawn on the board.
    await waitFor(async () => (await moveList(page)).length === 2 * i + 2, `the computer's reply to ${m}`, 10000);
    const after = await (await fetch(`${env.server.base}/api/games/${id}`)).json();
    assert.equal(after.moves[2 * i].uci, m);
    const reply = after.moves[2 * i + 1].uci;
    await waitFor(async () => (await boardPieces(page))[reply.slice(2, 4)]?.startsWith('black'), `the reply ${reply} on the board`);
    assert.equal((await boardPieces(page))[reply.slice(0, 2)], undefined, `${reply} left its square`);
    if (after.status !== 'playing') break;
  }
  await shot(page, 'computer-game-desktop-en');
});
