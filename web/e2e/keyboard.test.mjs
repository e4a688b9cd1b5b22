// Accessible play (Appendix D): moves typed in SAN with Czech piece letters, every move
// announced in an aria-live region, clocks and position read on demand.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, person, moveList, boardPieces, waitFor, shot } from './harness.mjs';

const env = useServerAndBrowser();

async function typeMove(page, text) {
  const before = (await moveList(page)).length;
  await page.locator('[data-testid=move-input]').fill(text);
  await page.locator('[data-testid=move-input]').press('Enter');
  await waitFor(async () => (await moveList(page)).length === before + 1, `move ${text}`);
}

test('moves typed with Czech letters are played and announced', async () => {
  const w = await person(env.browser, { locale: 'cs-CZ' });
  const b = await person(env.browser, { locale: 'cs-CZ' });
  const A = w.page;
  const B = b.page;

  await A.goto(env.server.base + '/');
  // The language comes from the browser: Czech.
  assert.equal(await A.locator('html').getAttribute('lang'), 'cs');
  assert.equal(await A.locator('[data-testid=create]').textContent(), 'Založit partii');
  await A.locator('button.preset[data-tc="10+5"]').click();
  await A.locator('label.color-white input').check();
  await A.locator('[data-testid=create]').click();
  await A.waitForURL(/\/game\//);
  const link = await A.locator('[data-testid=invite-link]').inputValue();
  await B.goto(link);
  await B.locator('[data-testid=join]').click();
  await waitFor(async () => (await A.locator('[data-testid=status]').textContent()).includes('Na tahu je Bílý'), 'start');

  // Keyboard only: Tab to the skip link, Enter, type the move, Enter.
  // The header's stops (brand, its links, log in, sign up, language), then the game's skip link.
  const headerStops = await A.evaluate(() => document.querySelectorAll('header a[href], header button, header select, header input').length);
  assert.ok(headerStops >= 5, `the header has its links (${headerStops} stops)`);
  let tabs = 0;
  while (!(await A.evaluate(() => document.activeElement?.classList.contains('skip')))) {
    await A.keyboard.press('Tab');
    assert.ok(++tabs <= headerStops + 1, `the skip link comes right after the header's ${headerStops} stops`);
  }
  await A.keyboard.press('Enter');
  assert.equal(await A.evaluate(() => document.activeElement?.id), 'move-input');
  await A.keyboard.type('e4');
  await A.keyboard.press('Enter');
  await waitFor(async () => (await moveList(A)).length === 1, 'e4 typed');
  await waitFor(async () => (await moveList(B)).length === 1, 'e4 on B');
  await typeMove(B, 'e5');
  await waitFor(async () => (await moveList(A)).length === 2, 'e5 on A');
  await typeMove(A, 'Jf3'); // jezdec (knight)
  // The opponent hears the move announced in words (aria-live).
  await waitFor(async () => (await B.locator('[data-testid=announce]').textContent()).includes('jezdec g1 f3'), 'announcement');
  await typeMove(B, 'Jc6');
  await waitFor(async () => (await moveList(A)).length === 4, 'Jc6 on A');
  await typeMove(A, 'Sb5'); // střelec (bishop)
  await waitFor(async () => (await moveList(B)).length === 5, 'Sb5 on B');
  await typeMove(B, 'a6');
  await waitFor(async () => (await moveList(A)).length === 6, 'a6 on A');
  await typeMove(A, 'Sxc6');
  await waitFor(async () => (await moveList(B)).length === 7, 'Sxc6 on B');
  await typeMove(B, 'dxc6');
  await waitFor(async () => (await moveList(A)).length === 8, 'dxc6 on A');
  await typeMove(A, '0-0');

  // The move list uses the Czech letters (Appendix C.3).
  await waitFor(async () => (await moveList(B)).length === 9, 'castling on B');
  assert.deepEqual(await moveList(B), ['e4', 'e5', 'Jf3', 'Jc6', 'Sb5', 'a6', 'Sxc6', 'dxc6', '0-0']);
  const pieces = await boardPieces(B);
  assert.equal(pieces.g1, 'white king');
  assert.equal(pieces.f1, 'white rook');
  assert.equal(pieces.c6, 'black pawn');

  // A move that is not legal is refused with a message, and nothing is sent.
  await B.locator('[data-testid=move-input]').fill('Jf3');
  await B.locator('[data-testid=move-input]').press('Enter');
  await waitFor(async () => (await B.locator('[data-testid=move-help]').textContent()).includes('Jf3'), 'refusal');
  assert.equal((await moveList(B)).length, 9);

  // Read on demand.
  await B.locator('[data-testid=read-clocks]').click();
  await waitFor(async () => /Bílý \d+:\d\d.*Černý \d+:\d\d/.test(await B.locator('[data-testid=announce]').textContent()), 'clocks read');
  await B.locator('[data-testid=read-position]').click();
  await waitFor(async () => (await B.locator('[data-testid=announce]').textContent()).includes('král g1'), 'position read');

  // Appendix D names when chosen.
  await B.locator('#pref-appendixD').check();
  await typeMove(B, 'Sg4');
  await waitFor(async () => (await A.locator('[data-testid=announce]').textContent()).length > 0, 'announce on A');
  await A.locator('#pref-appendixD').check();
  await A.locator('button', { hasText: 'Přečíst poslední tah' }).click();
  await waitFor(
    async () => (await A.locator('[data-testid=announce]').textContent()).includes('Laeufer Cesar acht Gustav vier'),
    'Appendix D words',
  );
  await shot(A, 'keyboard-desktop-cs');

  await w.ctx.close();
  await b.ctx.close();
});
