// Rules seen through the UI: a draw claim with the intended move (Art. 9.2.1.1), whose button
// appears only when the claim would be valid; a flag fall (Art. 6.9), also where the opponent cannot
// mate; a dead position (Art. 5.2.2); a Chess960 start (Guideline II).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, person, moveList, waitFor } from './harness.mjs';

const env = useServerAndBrowser();

test('art_9_2_1_1_claim_with_intended_move_ends_in_a_draw', async () => {
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

/** A `newGame` setup: the game starts from `fen`, with the time control `tc` if given. */
function fromFen(fen, tc) {
  return async (p) => {
    if (tc) await p.locator('[data-testid=tc-text]').fill(tc);
    await p.locator('[data-testid=variant]').selectOption('fen');
    await p.locator('input[placeholder^="rnbqkbnr"]').fill(fen);
  };
}

async function newGame(setup) {
  const w = await person(env.browser);
  const b = await person(env.browser);
  await w.page.goto(env.server.base + '/');
  await setup(w.page);
  await w.page.locator('label.color-white input').check();
  await w.page.locator('[data-testid=create]').click();
  await w.page.waitForURL(/\/game\//);
  const link = await w.page.locator('[data-testid=invite-link]').inputValue();
  await b.page.goto(link);
  await b.page.locator('[data-testid=join]').click();
  return { w, b };
}

test('art_6_9_a_fallen_flag_loses_and_the_clock_shows_it', async () => {
  const { w, b } = await newGame(async (p) => p.locator('[data-testid=tc-text]').fill('3s+0'));
  const A = w.page;
  await waitFor(async () => (await A.locator('[data-testid=status]').textContent()).includes('White to move'), 'start');
  // Low time is shown in the warning colour.
  assert.ok(await A.locator('[data-testid=clock-white]').evaluate((e) => e.classList.contains('low')));
  await A.locator('[data-testid=result]').waitFor({ timeout: 10000 });
  assert.equal(await A.locator('[data-testid=result]').getAttribute('data-text'), 'Black wins — time forfeit, Art. 6.9');
  assert.equal((await A.locator('[data-testid=clock-white]').textContent()).trim(), '0:00.0');
  await w.ctx.close();
  await b.ctx.close();
});

test('guideline_ii_chess960_start_position_by_number', async () => {
  const { w, b } = await newGame(async (p) => {
    await p.locator('[data-testid=variant]').selectOption('chess960');
    await p.locator('input[placeholder=Random]').fill('0');
  });
  const A = w.page;
  await waitFor(async () => (await A.locator('[data-testid=status]').textContent()).includes('White to move'), 'start');
  const { boardPieces } = await import('./harness.mjs');
  const pieces = await boardPieces(A);
  // Position 0 is BBQNNRKR.
  assert.equal(pieces.a1, 'white bishop');
  assert.equal(pieces.c1, 'white queen');
  assert.equal(pieces.g1, 'white king');
  assert.equal(pieces.g8, 'black king');
  await w.ctx.close();
  await b.ctx.close();
});

test('abort_before_both_have_moved_and_not_after', async () => {
  const { w, b } = await newGame(async () => {});
  const A = w.page;
  const B = b.page;
  await waitFor(async () => (await A.locator('[data-testid=status]').textContent()).includes('White to move'), 'start');
  await A.locator('[data-testid=move-input]').fill('e4');
  await A.locator('[data-testid=move-input]').press('Enter');
  await waitFor(async () => (await moveList(B)).length === 1, 'e4 on B');
  // Black has not moved yet: Black may abort.
  await B.locator('[data-testid=abort]').click();
  await B.locator('[data-testid=confirm-yes]').click();
  for (const p of [A, B]) {
    await p.locator('[data-testid=result]').waitFor();
    assert.match(await p.locator('[data-testid=result]').getAttribute('data-text'), /^Game aborted/);
  }
  assert.equal(await A.locator('[data-testid=abort]').count(), 0);
  await w.ctx.close();
  await b.ctx.close();
});

test('promotion_by_clicks_asks_for_the_piece_art_3_7_e', async () => {
  const { w, b } = await newGame(fromFen('7k/P7/8/8/8/8/8/K7 w - - 0 1'));
  const A = w.page;
  const { clickMove, boardPieces } = await import('./harness.mjs');
  await waitFor(async () => (await A.locator('[data-testid=status]').textContent()).includes('White to move'), 'start');
  await clickMove(A, 'a7a8');
  await A.locator('.promo button[data-role=knight]').click();
  await waitFor(async () => (await moveList(b.page)).join(' ') === 'a8=N', 'a8=N on B');
  assert.equal((await boardPieces(b.page)).a8, 'white knight');
  await w.ctx.close();
  await b.ctx.close();
});

test('art_9_1_2_1_an_offer_made_on_move_goes_with_the_move_and_is_accepted', async () => {
  const { w, b } = await newGame(async () => {});
  const A = w.page;
  const B = b.page;
  for (const [p, m] of [[A, 'e4'], [B, 'e5']]) {
    const n = (await moveList(p)).length;
    await waitFor(async () => (await moveList(p)).length === n, 'turn');
    await p.locator('[data-testid=move-input]').fill(m);
    await p.locator('[data-testid=move-input]').press('Enter');
    await waitFor(async () => (await moveList(p)).length === n + 1, m);
  }
  await waitFor(async () => (await moveList(A)).length === 2, 'e5 on A');
  // White is on move: the offer waits for White's move.
  await A.locator('[data-testid=offer-draw]').click();
  assert.equal(await A.locator('[data-testid=offer-draw]').getAttribute('aria-pressed'), 'true');
  assert.equal(await B.locator('[data-testid=accept-draw]').count(), 0, 'not offered before the move');
  await A.locator('[data-testid=move-input]').fill('Nf3');
  await A.locator('[data-testid=move-input]').press('Enter');
  await B.locator('[data-testid=accept-draw]').click();
  for (const p of [A, B]) {
    await p.locator('[data-testid=result]').waitFor();
    assert.equal(await p.locator('[data-testid=result]').getAttribute('data-text'), 'Draw — agreement, Art. 5.2.3');
  }
  await w.ctx.close();
  await b.ctx.close();
});

test('art_5_2_2_a_move_that_leaves_a_dead_position_ends_the_game_at_once', async () => {
  // Before g4 the white king can still slip through g4 and win the black pawns; after it,
  // no king can ever cross the wall: nobody can mate.
  const { w, b } = await newGame(fromFen('8/2k5/8/1p1p2p1/1P1P4/6P1/2K5/8 w - - 0 1'));
  const A = w.page;
  await waitFor(async () => (await A.locator('[data-testid=status]').textContent()).includes('White to move'), 'start');
  assert.equal(await A.locator('[data-testid=result]').isVisible(), false, 'not over before the move');
  await A.locator('[data-testid=move-input]').fill('g4');
  await A.locator('[data-testid=move-input]').press('Enter');
  for (const p of [A, b.page]) {
    await p.locator('[data-testid=result]').waitFor();
    assert.equal(await p.locator('[data-testid=result]').getAttribute('data-text'), 'Draw — dead position, Art. 5.2.2');
  }
  await w.ctx.close();
  await b.ctx.close();
});

test('art_6_9_a_flag_falls_where_the_opponent_cannot_mate_and_it_is_a_draw', async () => {
  // White can mate, Black (a bare king) cannot: White's flag falling draws.
  const { w, b } = await newGame(fromFen('4k3/8/8/8/8/8/8/Q3K3 w - - 0 1', '3s+0'));
  const A = w.page;
  await A.locator('[data-testid=result]').waitFor({ timeout: 10000 });
  assert.equal(
    await A.locator('[data-testid=result]').getAttribute('data-text'),
    'Draw — flag fell, but no series of legal moves could checkmate, Art. 6.9',
  );
  await w.ctx.close();
  await b.ctx.close();
});
