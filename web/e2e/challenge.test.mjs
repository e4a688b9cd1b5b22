// Challenges and game chat in the browser: Alice challenges Bob from his profile, Bob sees the
// challenge arrive in the header (on a phone too, without overflowing it) and accepts, both land
// in the same game; Alice writes in the players' room and Bob reads it live; a spectator has only
// the spectators' room; "hide chat" is remembered; a declined challenge is said so and a
// cancelled one disappears; the BOT mark before a bot's name.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, person, waitFor, shot } from './harness.mjs';

const env = useServerAndBrowser();
const PASSWORD = 'correct horse battery';

async function signUp(page, name) {
  await page.goto(env.server.base + '/signup');
  await page.locator('[data-testid=username]').fill(name);
  await page.locator('[data-testid=password]').fill(PASSWORD);
  await page.locator('[data-testid=auth-submit]').click();
  await page.waitForURL(env.server.base + '/');
  await waitFor(async () => (await page.locator('[data-testid=me]').textContent())?.includes(name), `${name} in the header`);
}

const text = async (loc) => ((await loc.first().textContent()) ?? '').replace(/\s+/g, ' ').trim();
const gameId = (url) => new URL(url).pathname.split('/').pop();
/** No horizontal scrolling: the page is no wider than the window. */
const fits = (page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
/** An element lies inside the window's width. */
const inside = async (loc, width) => {
  const box = await loc.boundingBox();
  return !!box && box.x >= 0 && box.x + box.width <= width;
};

/** The server has the challenge routes (they answer 401 to nobody, not 404). */
async function serverHasChallenges() {
  const r = await fetch(env.server.base + '/api/challenge');
  return r.status !== 404;
}

test('a challenge from a profile, accepted from the header, then the chat of the game', async (t) => {
  if (!(await serverHasChallenges())) return t.skip('the server has no /api/challenge yet');
  const a = await person(env.browser);
  const b = await person(env.browser);
  const c = await person(env.browser);
  const A = a.page;
  const B = b.page;
  const C = c.page;
  await signUp(A, 'alice');
  await signUp(B, 'bob');
  await signUp(C, 'carol');

  // No challenge button on one's own profile.
  await A.goto(env.server.base + '/@/alice');
  await A.locator('[data-testid=profile-name]').waitFor();
  assert.equal(await A.locator('[data-testid=challenge-button]').count(), 0);

  // Alice opens Bob's profile and challenges him: 5+3 preset, White, rated.
  await A.goto(env.server.base + '/@/bob');
  await A.locator('[data-testid=challenge-button]').click();
  await A.locator('[data-testid=challenge-preset-5\\+3]').click();
  assert.equal(await A.locator('[data-testid=challenge-minutes]').inputValue(), '5');
  assert.equal(await A.locator('[data-testid=challenge-increment]').inputValue(), '3');
  await A.locator('[data-testid=challenge-color-white]').check();
  await A.locator('[data-testid=send-challenge]').click();
  const waiting = A.locator('[data-testid=challenge-waiting]');
  await waiting.waitFor({ timeout: 5000 });
  assert.match(await text(waiting), /Waiting for bob to accept…/);
  assert.match(await text(waiting), /5\+3 · Rated · Blitz/);
  await shot(A, 'challenge-waiting-en');

  // Bob, in the lobby, sees it arrive in the header.
  const incoming = B.locator('[data-testid=incoming-challenge][data-from=alice]');
  await incoming.waitFor({ timeout: 10000 });
  const line = await text(incoming);
  assert.match(line, /alice\s*1500\? challenges you/);
  assert.match(line, /5\+3 · Rated · Blitz · you play Black/);
  await shot(B, 'challenge-incoming-desktop-en');
  // On a phone it fits (360 and 390 pixels wide).
  for (const width of [360, 390]) {
    await B.setViewportSize({ width, height: 844 });
    await waitFor(() => fits(B), `no horizontal overflow at ${width} px`, 3000);
    assert.ok(await inside(incoming, width), `the challenge is inside the screen at ${width} px`);
  }
  await shot(B, 'challenge-incoming-phone-en');
  await B.setViewportSize({ width: 1280, height: 860 });

  // Bob accepts: both are in the same game, Alice as White.
  await incoming.locator('[data-testid=accept-challenge]').click();
  await B.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  await A.waitForURL(/\/game\/[A-Za-z0-9]+$/, { timeout: 10000 });
  const id = gameId(A.url());
  assert.equal(gameId(B.url()), id, 'both players are in the same game');
  await waitFor(async () => (await text(A.locator('[data-testid=status]'))).includes('You play White'), 'alice plays white');
  await waitFor(async () => (await text(B.locator('[data-testid=status]'))).includes('You play Black'), 'bob plays black');
  assert.equal(await B.locator('[data-testid=incoming-challenge]').count(), 0, 'the accepted challenge left the header');

  // The chat: the players have both rooms and start in the players' room.
  for (const p of [A, B]) {
    await p.locator('[data-testid=chat]').waitFor({ timeout: 5000 });
    assert.equal(await p.locator('[data-testid=chat-tab-player]').getAttribute('aria-selected'), 'true');
    assert.equal(await p.locator('[data-testid=chat-tab-spectator]').count(), 1);
  }
  await A.locator('[data-testid=chat-input]').fill('Good luck, have fun!');
  await A.locator('[data-testid=chat-send]').click();
  const bobSees = B.locator('[data-testid=chat-lines] li[data-user=alice]');
  await bobSees.waitFor({ timeout: 5000 });
  assert.match(await text(bobSees), /alice Good luck, have fun!/);
  assert.equal(await A.locator('[data-testid=chat-input]').inputValue(), '', 'the field is emptied once sent');
  assert.equal(await A.locator('[data-testid=chat-input]').getAttribute('maxlength'), '140');

  // Carol watches: only the spectators' room, without Alice's line.
  await C.goto(`${env.server.base}/game/${id}`);
  await C.locator('[data-testid=chat]').waitFor({ timeout: 5000 });
  await waitFor(async () => (await text(C.locator('[data-testid=status]'))).includes('watching'), 'carol is a spectator');
  assert.equal(await C.locator('[data-testid=chat-tab-player]').count(), 0, 'no players’ room for a spectator');
  assert.doesNotMatch(await text(C.locator('[data-testid=chat-lines]')), /Good luck/);
  await C.locator('[data-testid=chat-input]').fill('Hello from the stands');
  await C.locator('[data-testid=chat-send]').click();
  await C.locator('[data-testid=chat-lines] li[data-user=carol]').waitFor({ timeout: 5000 });
  // Alice is told there is something new in the spectators' room, and reads it there.
  await A.locator('[data-testid=chat-tab-spectator] .unread').waitFor({ timeout: 5000 });
  await A.locator('[data-testid=chat-tab-spectator]').click();
  assert.match(await text(A.locator('[data-testid=chat-lines]')), /carol Hello from the stands/);
  assert.doesNotMatch(await text(A.locator('[data-testid=chat-lines]')), /Good luck/);
  await A.locator('[data-testid=chat-tab-player]').click();
  await shot(A, 'chat-desktop-en');
  await A.setViewportSize({ width: 390, height: 844 });
  await A.locator('[data-testid=chat]').scrollIntoViewIfNeeded();
  // (The board's file letters overhang its edge by a few pixels: chessground's, not the chat's.)
  assert.ok(await inside(A.locator('[data-testid=chat]'), 390), 'the chat fits a phone');
  assert.ok(await inside(A.locator('[data-testid=chat-input]'), 390), 'the chat field fits a phone');
  await shot(A, 'chat-phone-en');
  await A.setViewportSize({ width: 1280, height: 860 });

  // Hide chat: remembered for Alice after a reload, not for Bob.
  await A.locator('[data-testid=chat-toggle]').click();
  assert.ok(await A.locator('[data-testid=chat-lines]').isHidden());
  await A.reload();
  await A.locator('[data-testid=chat]').waitFor({ timeout: 5000 });
  assert.ok(await A.locator('[data-testid=chat-lines]').isHidden(), 'still hidden after a reload');
  assert.equal(await text(A.locator('[data-testid=chat-toggle]')), 'Show chat');
  assert.ok(await B.locator('[data-testid=chat-lines]').isVisible());
  await A.locator('[data-testid=chat-toggle]').click();
  assert.ok(await A.locator('[data-testid=chat-lines]').isVisible());

  // During a tournament round the players' room is closed (Art. 11.3): the server says so in
  // `player_closed` (marked here on the answer, this game is no tournament game).
  await B.route(`**/api/games/${id}/chat`, async (route) => {
    const res = await route.fetch();
    await route.fulfill({ response: res, json: { ...(await res.json()), player_closed: true } });
  });
  await B.reload();
  await B.locator('[data-testid=chat-closed]').waitFor({ timeout: 5000 });
  assert.equal(await text(B.locator('[data-testid=chat-closed]')), 'The players’ chat is closed during the round (Art. 11.3).');
  assert.ok(await B.locator('[data-testid=chat-input]').isHidden(), 'nothing to write in a closed room');
  await B.locator('[data-testid=chat-tab-spectator]').click();
  assert.ok(await B.locator('[data-testid=chat-closed]').isHidden());
  assert.ok(await B.locator('[data-testid=chat-input]').isVisible(), 'the spectators’ room stays open');

  await a.ctx.close();
  await b.ctx.close();
  await c.ctx.close();
});

test('a declined challenge is said so, a cancelled one disappears, a bad one is refused', async (t) => {
  if (!(await serverHasChallenges())) return t.skip('the server has no /api/challenge yet');
  const d = await person(env.browser);
  const e = await person(env.browser);
  const D = d.page;
  const E = e.page;
  await signUp(D, 'dora');
  await signUp(E, 'emil');

  // Correspondence, 3 days a move, casual.
  await D.goto(env.server.base + '/@/emil');
  await D.locator('[data-testid=challenge-button]').click();
  await D.locator('[data-testid=challenge-kind-correspondence]').check();
  await D.locator('[data-testid=challenge-days]').selectOption('3');
  await D.locator('[data-testid=challenge-rated]').uncheck();
  await D.locator('[data-testid=send-challenge]').click();
  await D.locator('[data-testid=challenge-waiting]').waitFor({ timeout: 5000 });
  const incoming = E.locator('[data-testid=incoming-challenge][data-from=dora]');
  await incoming.waitFor({ timeout: 10000 });
  assert.match(await text(incoming), /3 days per move · Casual/);
  await incoming.locator('[data-testid=decline-challenge]').click();
  await waitFor(async () => (await incoming.count()) === 0, 'the declined challenge leaves emil’s header');
  const declined = D.locator('[data-testid=challenge-declined]');
  await declined.waitFor({ timeout: 10000 });
  assert.match(await text(declined), /emil declined your challenge/);

  // Again, then cancelled: it leaves Emil's header.
  // The form kept the last choices: back to a clock.
  await D.locator('[data-testid=challenge-button]').click();
  await D.locator('[data-testid=challenge-kind-clock]').check();
  await D.locator('[data-testid=challenge-preset-10\\+5]').click();
  await D.locator('[data-testid=send-challenge]').click();
  await D.locator('[data-testid=challenge-waiting]').waitFor({ timeout: 5000 });
  assert.equal(await D.locator('[data-testid=challenge-declined]').count(), 0);
  await incoming.waitFor({ timeout: 10000 });
  assert.match(await text(incoming), /10\+5 · Casual · Rapid/);
  await D.locator('[data-testid=cancel-challenge]').click();
  await waitFor(async () => (await incoming.count()) === 0, 'the cancelled challenge leaves emil’s header', 10000);
  await waitFor(async () => (await D.locator('[data-testid=challenge-waiting]').count()) === 0, 'the waiting note goes once cancelled', 10000);
  assert.ok(await D.locator('[data-testid=challenge-button]').isVisible());

  // A clock of no time is refused before sending.
  await D.locator('[data-testid=challenge-button]').click();
  await D.locator('[data-testid=challenge-minutes]').fill('0');
  await D.locator('[data-testid=challenge-increment]').fill('0');
  await D.locator('[data-testid=send-challenge]').click();
  assert.match(await text(D.locator('[data-testid=challenge-box] .error')), /A clock needs some time/);

  await d.ctx.close();
  await e.ctx.close();
});

test('a bot account carries the BOT mark before its name', async () => {
  const v = await person(env.browser);
  const V = v.page;
  await signUp(V, 'vera');
  const f = await person(env.browser);
  await signUp(f.page, 'robo');
  // The server marks bot accounts with `title: "BOT"`; an account becomes one through the API
  // (lichess's upgrade) when the server has it, else the profile's answer is marked here.
  const upgraded = await f.page.evaluate(async () => (await fetch('/api/bot/account/upgrade', { method: 'POST' })).ok);
  if (!upgraded) console.log('# no bot upgrade on this server: the profile answer is marked by the test');
  if (!upgraded)
    await V.route('**/api/users/robo', async (route) => {
      const res = await route.fetch();
      const json = await res.json();
      await route.fulfill({ response: res, json: { ...json, title: 'BOT' } });
    });
  await V.goto(env.server.base + '/@/robo');
  const badge = V.locator('.page-title [data-testid=title-badge]');
  await badge.waitFor({ timeout: 5000 });
  assert.equal(await badge.textContent(), 'BOT');
  assert.equal(await V.locator('.page-title').evaluate((el) => el.firstElementChild?.textContent), 'BOT', 'the mark comes before the name');
  assert.equal(await V.locator('[data-testid=profile-name]').textContent(), 'robo');
  // A bot can be challenged like anyone; in the game its name carries the mark too.
  assert.ok(await V.locator('[data-testid=challenge-button]').isVisible());
  if (upgraded) {
    await V.locator('[data-testid=challenge-button]').click();
    await V.locator('[data-testid=send-challenge]').click();
    await V.locator('[data-testid=challenge-waiting]').waitFor({ timeout: 5000 });
    const id = await V.locator('[data-testid=challenge-waiting]').getAttribute('data-challenge');
    const accepted = await f.page.evaluate(async (cid) => (await fetch(`/api/challenge/${cid}/accept`, { method: 'POST' })).ok, id);
    assert.ok(accepted, 'the bot accepts');
    await V.waitForURL(new RegExp(`/game/${id}$`), { timeout: 10000 });
    const robo = V.locator('.player .name', { hasText: 'robo' });
    await robo.locator('[data-testid=title-badge]').waitFor({ timeout: 5000 });
    assert.equal(await robo.locator('[data-testid=title-badge]').textContent(), 'BOT');
    await shot(V, 'bot-game-en');
  }
  await v.ctx.close();
  await f.ctx.close();
});
