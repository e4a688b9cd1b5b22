// A short game between two browsers through the UI: create, invite, join, moves by clicks, a
// draw offer declined, a mate (Art. 5.1.1); the board, clocks, move list, result and PGN are
// checked; a third browser watches; a reload resumes where it was.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  useServerAndBrowser,
  person,
  clickMove,
  boardPieces,
  moveList,
  clockMs,
  waitFor,
  shot,
} from './harness.mjs';

const env = useServerAndBrowser();

test('two players play a game to mate in the browser while a third watches', async () => {
  const white = await person(env.browser);
  const black = await person(env.browser);
  const watcher = await person(env.browser, { viewport: { width: 390, height: 844 } });
  const A = white.page;
  const B = black.page;
  const C = watcher.page;

  // Create: preset 3+2, White.
  await A.goto(env.server.base + '/');
  await A.locator('button.preset[data-tc="3+2"]').click();
  assert.equal(await A.locator('[data-testid=tc-text]').inputValue(), '3+2');
  await A.locator('label.color-white input').check();
  await shot(A, 'lobby-desktop-en');
  await A.locator('[data-testid=create]').click();
  await A.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  const link = await A.locator('[data-testid=invite-link]').inputValue();
  assert.match(link, /^http:\/\/127\.0\.0\.1:\d+\/game\/[A-Za-z0-9]+$/);
  const id = link.split('/').pop();

  // The open game is listed for others.
  await B.goto(env.server.base + '/');
  await B.locator(`[data-testid=join-${id}]`).waitFor();

  // Join through the link.
  await B.goto(link);
  await B.locator('[data-testid=join]').click();
  await waitFor(async () => (await B.locator('[data-testid=status]').textContent()).includes('You play Black'), 'black seat');
  await waitFor(async () => (await A.locator('[data-testid=status]').textContent()).includes('White to move'), 'game start on A');

  // Spectator (phone-sized).
  await C.goto(link);
  await waitFor(async () => (await C.locator('[data-testid=status]').textContent()).includes('watching'), 'spectator');
  assert.equal(await C.locator('[data-testid=resign]').count(), 0, 'a spectator has no resign button');

  // Clocks: 3:00 each; White's runs, Black's stands.
  const w0 = await clockMs(A, 'white');
  const b0 = await clockMs(A, 'black');
  assert.ok(w0 <= 180000 && w0 > 170000, `white clock ${w0}`);
  assert.equal(b0, 180000);
  await new Promise((r) => setTimeout(r, 1200));
  const w1 = await clockMs(A, 'white');
  assert.ok(w1 < w0 - 700, `white's clock runs: ${w0} → ${w1}`);
  assert.equal(await clockMs(A, 'black'), 180000, "black's clock stands");
  assert.ok(await A.locator('[data-testid=clock-white]').evaluate((e) => e.classList.contains('active')));

  // 1. f3 by clicks; legal-move hints appear after the first click.
  await A.locator('cg-board').waitFor();
  const { clickSquare } = await import('./harness.mjs');
  await clickSquare(A, 'f2');
  // The board redraws on the next animation frame.
  await waitFor(async () => (await A.locator('cg-board square.move-dest').count()) === 2, 'f2 pawn shows two destinations');
  assert.deepEqual(
    await A.locator('cg-board square.move-dest').evaluateAll((els) => els.map((e) => e.cgKey).sort()),
    ['f3', 'f4'],
  );
  await clickSquare(A, 'f3');
  await waitFor(async () => (await moveList(B)).join(' ') === 'f3', 'f3 on B');
  await waitFor(async () => (await moveList(A)).join(' ') === 'f3', 'f3 confirmed on A');

  // Art. 5.2.3: no draw offer before both players have moved.
  assert.equal(await A.locator('[data-testid=offer-draw]').count(), 0, 'no offer before both moved');

  // A premove: White clicks g2-g4 while Black is thinking; it is played when e5 arrives.
  await clickMove(A, 'g2g4');
  await waitFor(async () => (await A.locator('cg-board square.current-premove').count()) === 2, 'premove shown');
  assert.equal((await moveList(A)).length, 1, 'a premove is not sent before its turn');
  await clickMove(B, 'e7e5');
  await waitFor(async () => (await moveList(B)).join(' ') === 'f3 e5 g4', 'premove played');

  // White offers a draw (not on move: the offer goes at once); Black declines.
  await A.locator('[data-testid=offer-draw]').click();
  await B.locator('[data-testid=decline-draw]').waitFor();
  assert.match(await B.locator('.offer').textContent(), /offers a draw/);
  await waitFor(async () => (await C.locator('.offer').textContent()).includes('White'), 'spectator sees the offer');
  await shot(B, 'offer-desktop-en');
  await B.locator('[data-testid=decline-draw]').click();
  await waitFor(async () => (await B.locator('.offer').isHidden()), 'offer gone on B');
  await waitFor(async () => (await A.locator('.offer').isHidden()), 'offer gone on A');

  // A reload resumes exactly where it was, seat included.
  await A.reload();
  await waitFor(async () => (await moveList(A)).join(' ') === 'f3 e5 g4', 'moves after reload');
  assert.match(await A.locator('[data-testid=status]').textContent(), /You play White/);
  const pieces = await boardPieces(A);
  assert.equal(pieces.g4, 'white pawn');
  assert.equal(pieces.e5, 'black pawn');
  assert.equal(pieces.f2, undefined);
  await C.reload();
  await waitFor(async () => (await moveList(C)).length === 3, 'spectator after reload');

  // Black's clock has run, White's has the increment.
  const bRun = await clockMs(B, 'black');
  assert.ok(bRun < 180000 + 2000, `black clock ${bRun}`);

  // 2... Qh4# (Art. 5.1.1).
  await clickMove(B, 'd8h4');
  for (const page of [A, B, C]) {
    await page.locator('[data-testid=result]').waitFor();
    const text = await page.locator('[data-testid=result]').getAttribute('data-text');
    assert.equal(text, 'Black wins — checkmate, Art. 5.1.1');
  }
  assert.deepEqual(await moveList(C), ['f3', 'e5', 'g4', 'Qh4#']);
  // The mating move and the result are announced for screen readers.
  await waitFor(
    async () => (await C.locator('[data-testid=announce]').textContent()) === 'Black: queen d8 h4 checkmate Black wins — checkmate, Art. 5.1.1',
    'announcement of the mate',
  );
  assert.equal((await boardPieces(C)).h4, 'black queen');
  assert.ok(await A.locator('cg-board square.check').count(), 'the mated king is highlighted');
  assert.equal(await A.locator('[data-testid=resign]').count(), 0, 'no resign after the end');
  await shot(A, 'mate-desktop-en');
  await shot(C, 'mate-phone-en');

  // Clocks stop at the end.
  const wEnd = await clockMs(A, 'white');
  await new Promise((r) => setTimeout(r, 600));
  assert.equal(await clockMs(A, 'white'), wEnd, 'clocks stand after the game');

  // PGN download.
  const [download] = await Promise.all([A.waitForEvent('download'), A.locator('[data-testid=pgn]').click()]);
  const pgn = readFileSync(await download.path(), 'utf8');
  assert.match(pgn, /\[Result "0-1"\]/);
  assert.match(pgn, /\[%clk \d:\d\d:\d\d/, 'clock times are recorded');
  assert.match(pgn.replace(/\s*\{[^}]*\}/g, '').replace(/ \d+\.\.\./g, '').replace(/\s+/g, ' '), /1\. f3 e5 2\. g4 Qh4# 0-1/);

  // A new game goes back to the form with the same time control.
  await A.locator('[data-testid=new-game]').click();
  assert.equal(await A.locator('[data-testid=tc-text]').inputValue(), '3+2');

  await white.ctx.close();
  await black.ctx.close();
  await watcher.ctx.close();
});
