// PGN import through the UI: a 2-game PGN with one broken game — the error is shown with its
// game number, line and column; the other game is imported, its page says "Imported game" and
// shows its opening by name.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, person } from './harness.mjs';

const env = useServerAndBrowser();

const PGN = `[Event "Club"]
[White "Ann"]
[Black "Bob"]
[Result "0-1"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 0-1

[Event "Broken"]
[Result "*"]

1. e4 e5 2. Ke3 *
`;

test('import_two_games_one_broken_shows_the_error_and_opens_the_other', async () => {
  const { page } = await person(env.browser);
  await page.goto(env.server.base + '/');
  await page.locator('[data-testid=import-link]').click();
  await page.waitForURL(/\/import$/);
  await page.locator('[data-testid=pgn-input]').fill(PGN);
  await page.locator('[data-testid=import-submit]').click();
  const errors = page.locator('[data-testid=import-errors] li');
  await errors.first().waitFor();
  const text = await errors.first().textContent();
  assert.match(text, /Game 2, line 11, column 13: illegal move 'Ke3'/);
  await page.screenshot({ path: '/tmp/h2-import.png', fullPage: true });
  await page.locator('[data-testid=imported-1]').click();
  await page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  await page.locator('[data-testid=imported-mark]').waitFor();
  assert.match(await page.locator('[data-testid=imported-mark]').textContent(), /Imported game/);
  assert.equal(await page.locator('[data-testid=opening]').textContent(), 'C50 Italian Game: Giuoco Piano');
  assert.match(await page.locator('[data-testid=moves]').textContent(), /3\. Bc4 Bc5/);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: '/tmp/h2-imported-game.png', fullPage: true });
});
