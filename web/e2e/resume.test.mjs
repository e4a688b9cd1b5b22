// A lost connection resumes exactly where it was: the server goes away in the middle of a
// game and comes back; the page reconnects with the last event number it saw and catches up.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, person, clickMove, moveList, boardPieces, waitFor } from './harness.mjs';

const env = useServerAndBrowser();

test('a_lost_connection_resumes_where_it_was', async () => {
  const w = await person(env.browser);
  const b = await person(env.browser);
  const A = w.page;
  const B = b.page;
  await A.goto(env.server.base + '/');
  await A.locator('label.color-white input').check();
  await A.locator('[data-testid=create]').click();
  await A.waitForURL(/\/game\//);
  const link = await A.locator('[data-testid=invite-link]').inputValue();
  await B.goto(link);
  await B.locator('[data-testid=join]').click();
  await waitFor(async () => (await A.locator('[data-testid=status]').textContent()).includes('White to move'), 'start');
  await clickMove(A, 'e2e4');
  await waitFor(async () => (await moveList(B)).length === 1, 'e4 on B');

  await env.server.restart();
  await waitFor(async () => A.locator('.conn').isVisible(), 'A notices the lost connection');
  // Black moves as soon as the server is back; White's page catches up by itself.
  await waitFor(async () => B.locator('.conn').isHidden(), 'B reconnected', 15000);
  await clickMove(B, 'c7c5');
  await waitFor(async () => (await moveList(A)).join(' ') === 'e4 c5', 'A caught up', 15000);
  assert.ok(await A.locator('.conn').isHidden());
  assert.equal((await boardPieces(A)).c5, 'black pawn');
  // And White still holds the seat.
  await clickMove(A, 'g1f3');
  await waitFor(async () => (await moveList(B)).join(' ') === 'e4 c5 Nf3', 'Nf3 on B');
  await w.ctx.close();
  await b.ctx.close();
});
