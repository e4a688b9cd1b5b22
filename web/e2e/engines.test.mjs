// An external UCI engine as the computer in the browser: the server is started with
// `--uci-engine arbiter=…/arbiter-uci` (our own engine as an external program, built next to
// the arbiter binary); the create form offers it after the levels, the game names it by its
// `id name`, and it answers a move made by clicks.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { useServerAndBrowser, arbiterBin, person, clickMove, moveList, waitFor } from './harness.mjs';

const uciBin = join(dirname(arbiterBin()), 'arbiter-uci');
const available = existsSync(uciBin);
const env = useServerAndBrowser(available ? ['--engine-max-think', '1', '--uci-engine', `arbiter=${uciBin}`] : []);

test('the create form offers the external engine, which answers a move', { skip: !available && process.env.ARBITER_STRICT !== '1' && `no ${uciBin} (cargo build -p arbiter-server)` }, async () => {
  const engines = await (await fetch(`${env.server.base}/api/engines`)).json();
  const idName = engines.external[0].id_name;
  const { page } = await person(env.browser);
  await page.goto(env.server.base + '/');
  await page.locator('[data-testid=opponent-computer]').check();
  await waitFor(async () => (await page.locator('[data-testid=level] option[value="engine:arbiter"]').count()) === 1, 'the engine offered');
  assert.equal((await page.locator('[data-testid=level] option[value="engine:arbiter"]').textContent()).trim(), idName);
  await page.locator('[data-testid=level]').selectOption('engine:arbiter');
  await page.locator('label.color-white input').check();
  await page.locator('[data-testid=create]').click();
  await page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  const id = page.url().split('/').pop();
  await waitFor(async () => (await page.locator('[data-testid=status]').textContent()).includes('White to move'), 'game started');
  assert.ok((await page.locator('.player.top .name').textContent()).includes(`Black · ${idName}`));
  await clickMove(page, 'e2e4');
  await waitFor(async () => (await moveList(page)).length === 2, 'the engine’s reply', 15000);
  const state = await (await fetch(`${env.server.base}/api/games/${id}`)).json();
  assert.equal(state.computer.engine, 'arbiter');
  assert.equal(state.moves[0].uci, 'e2e4');
});
