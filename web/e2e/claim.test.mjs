// A draw claim with the intended move (Art. 9.2.1.1): the button appears only when the move
// would make the position appear a third time, and the claim ends the game as a draw.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, startBrowser, person, moveList, waitFor } from './harness.mjs';

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await startBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('art_9_2_1_1_claim_with_intended_move_ends_in_a_draw', async () => {
  const w = await person(browser);
  const b = await person(browser);
  const A = w.page;
  const B = b.page;
  await A.goto(server.base + '/');
  await A.locator('label.color-white input').check();
  await A.locator('[data-testid=create]').click();
  await A.waitForURL(/\/game\//);
  const link = await A.locator('[data-testid=invite-link]').inputValue();
  await B.goto(link);
  await B.locator('[data-testid=join]').click();

  const plays = ['Nf3', 'Nf6', 'Ng1', 'Ng8', 'Nf3', 'Nf6', 'Ng1'];
  for (let i = 0; i < plays.length; i++) {
    const p = i % 2 === 0 ? A : B;
    await waitFor(async () => (await moveList(p)).length === i, `ply ${i}`);
    // No claim is offered while none would be valid.
    assert.equal(await p.locator('[data-testid^=claim-]').count(), 0, `no claim at ply ${i}`);
    await p.locator('[data-testid=move-input]').fill(plays[i]);
    await p.locator('[data-testid=move-input]').press('Enter');
  }
  await waitFor(async () => (await moveList(B)).length === 7, 'all moves on B');
  // Black's Ng8 would repeat the start position a third time.
  const claim = B.locator('[data-testid="claim-with-Ng8"]');
  await claim.waitFor();
  assert.equal(await B.locator('[data-testid=claim-draw]').count(), 0, 'no claim without a move yet');
  await claim.click();
  for (const p of [A, B]) {
    await p.locator('[data-testid=result]').waitFor();
    assert.equal(await p.locator('[data-testid=result]').getAttribute('data-text'), 'Draw — threefold repetition claimed, Art. 9.2');
  }
  // The intended move is written, not played (Art. 9.2.1.1).
  assert.equal((await moveList(A)).length, 7);
  await w.ctx.close();
  await b.ctx.close();
});
