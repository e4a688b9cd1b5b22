// Languages: chosen from the browser (Persian → right to left), switched by hand; the move list
// in the language's letters (Appendix C.3) or figurines.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, person, moveList, waitFor } from './harness.mjs';

const env = useServerAndBrowser();

test('persian_is_right_to_left_and_the_switch_changes_language_and_letters', async () => {
  const w = await person(env.browser, { locale: 'fa-IR', viewport: { width: 390, height: 844 } });
  const b = await person(env.browser, { locale: 'sk-SK' });
  const A = w.page;
  const B = b.page;
  await A.goto(env.server.base + '/');
  assert.equal(await A.locator('html').getAttribute('dir'), 'rtl');
  assert.equal(await A.locator('html').getAttribute('lang'), 'fa');
  assert.equal(await A.locator('[data-testid=create]').textContent(), 'ساختن بازی');
  // The board itself stays left to right (a1 bottom left for White).
  await A.locator('label.color-white input').check();
  await A.locator('[data-testid=create]').click();
  await A.waitForURL(/\/game\//);
  assert.equal(await A.locator('.board-wrap').getAttribute('dir'), 'ltr');
  const link = await A.locator('[data-testid=invite-link]').inputValue();
  await B.goto(link);
  await B.locator('[data-testid=join]').click();
  for (const [p, m] of [[A, 'Nf3'], [B, 'Jc6'], [A, 'e4']]) {
    const n = (await moveList(p)).length;
    await waitFor(async () => (await p.locator('[data-testid=status]').textContent()).length > 0, 'status');
    await p.locator('[data-testid=move-input]').fill(m);
    await p.locator('[data-testid=move-input]').press('Enter');
    await waitFor(async () => (await moveList(p)).length === n + 1, m);
  }
  // Slovak letters for the Slovak player, English letters in Persian (seed 003).
  await waitFor(async () => (await moveList(B)).length === 3, 'three moves on B');
  assert.deepEqual(await moveList(B), ['Jf3', 'Jc6', 'e4']);
  assert.deepEqual(await moveList(A), ['Nf3', 'Nc6', 'e4']);
  // Persian digits on the clock and the move numbers.
  assert.match(await A.locator('[data-testid=clock-white]').textContent(), /^[۰-۹]+:[۰-۹]{2}$/);
  // Figurines on demand.
  await A.locator('#pref-figurines').check();
  assert.deepEqual(await moveList(A), ['♘f3', '♞c6', 'e4']);
  // The switch: Persian → English, the page turns left to right.
  await A.locator('[data-testid=lang]').selectOption('en');
  assert.equal(await A.locator('html').getAttribute('dir'), 'ltr');
  await waitFor(async () => (await A.locator('[data-testid=status]').textContent()).includes('Black to move'), 'English status');
  await w.ctx.close();
  await b.ctx.close();
});

test('the_move_list_shows_past_positions', async () => {
  const w = await person(env.browser);
  const b = await person(env.browser);
  const A = w.page;
  const B = b.page;
  await A.goto(env.server.base + '/');
  await A.locator('label.color-white input').check();
  await A.locator('[data-testid=create]').click();
  await A.waitForURL(/\/game\//);
  await B.goto(await A.locator('[data-testid=invite-link]').inputValue());
  await B.locator('[data-testid=join]').click();
  for (const [p, m] of [[A, 'e4'], [B, 'd5'], [A, 'exd5']]) {
    const n = (await moveList(p)).length;
    await waitFor(async () => (await moveList(p)).length === n, 'turn');
    await p.locator('[data-testid=move-input]').fill(m);
    await p.locator('[data-testid=move-input]').press('Enter');
    await waitFor(async () => (await moveList(p)).length === n + 1, m);
  }
  const { boardPieces } = await import('./harness.mjs');
  await waitFor(async () => (await moveList(B)).length === 3, 'exd5 on B');
  // Black looks at the position after 1... d5, then walks with the arrow keys.
  await B.locator('[data-testid=moves] button[data-ply="2"]').click();
  await waitFor(async () => (await boardPieces(B)).d5 === 'black pawn', 'position after d5');
  assert.equal((await boardPieces(B)).e4, 'white pawn');
  await B.keyboard.press('ArrowRight');
  await waitFor(async () => (await boardPieces(B)).d5 === 'white pawn', 'position after exd5');
  await B.keyboard.press('Home');
  await waitFor(async () => (await boardPieces(B)).e2 === 'white pawn', 'start position');
  assert.ok(await B.locator('[data-testid=live]').isVisible());
  await B.locator('[data-testid=live]').click();
  await waitFor(async () => (await boardPieces(B)).d5 === 'white pawn', 'back to the game');
  assert.ok(await B.locator('[data-testid=live]').isHidden());
  await w.ctx.close();
  await b.ctx.close();
});
