// Players in the browser: accounts in the header, a rated game from a seek played to mate with
// the rating changes shown, profiles, a rematch with colours swapped, quick pairing from a pool,
// logging out and in (a wrong password is refused), the leaderboard and a profile seen by a
// visitor, and a waiting game withdrawn by its creator.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { useServerAndBrowser, person, clickMove, moveList, waitFor, shot } from './harness.mjs';

const env = useServerAndBrowser();
const PASSWORD = 'correct horse battery';

/** Signs up through the form (the header's link) and waits for the header to show the name. */
async function signUp(page, name) {
  await page.goto(env.server.base + '/');
  await page.locator('[data-testid=signup-link]').click();
  await page.waitForURL(/\/signup$/);
  await page.locator('[data-testid=username]').fill(name);
  await page.locator('[data-testid=password]').fill(PASSWORD);
  await page.locator('[data-testid=auth-submit]').click();
  await page.waitForURL(env.server.base + '/');
  await waitFor(async () => (await page.locator('[data-testid=me]').textContent())?.includes(name), `${name} in the header`);
}

const text = async (page, sel) => ((await page.locator(sel).first().textContent()) ?? '').trim();
const gameId = (url) => new URL(url).pathname.split('/').pop();

/** Plays moves alternately, each after the previous one has reached the page that plays. */
async function play(pages, moves) {
  for (let i = 0; i < moves.length; i++) {
    const p = pages[i % 2];
    await waitFor(async () => (await moveList(p)).length === i, `ply ${i}`);
    await clickMove(p, moves[i]);
  }
}

test('a rated seek, a game to mate with rating changes, profiles, and a rematch', async () => {
  const a = await person(env.browser);
  const b = await person(env.browser);
  const A = a.page;
  const B = b.page;
  await signUp(A, 'alice');
  await signUp(B, 'bob');
  assert.equal(await A.locator('[data-testid=login-link]').count(), 0, 'no log-in link once logged in');
  assert.equal(await A.locator('[data-testid=me]').getAttribute('href'), '/@/alice');

  // Alice posts a rated 5+3 seek as White; Bob sees it arrive without reloading.
  await A.locator('[data-testid=create-seek] summary').click();
  await A.locator('[data-testid=seek-tc]').fill('5+3');
  assert.ok(await A.locator('[data-testid=seek-rated]').isChecked(), 'seeks are rated by default');
  await A.locator('[data-testid=seek-color-white]').check();
  await A.locator('[data-testid=post-seek]').click();
  const row = B.locator('[data-testid=seeks] tr[data-user=alice]');
  await row.waitFor({ timeout: 5000 });
  const cells = await row.locator('td').allTextContents();
  assert.deepEqual(cells.slice(0, 5), ['alice', '1500?', '5+3Rated', 'White', '']);
  // Her own seek has a cancel button, not an accept button.
  const own = A.locator('[data-testid=seeks] tr[data-user=alice]');
  await own.waitFor();
  assert.equal(await own.locator('[data-testid^=accept-seek]').count(), 0);
  assert.equal(await own.locator('[data-testid^=cancel-seek]').count(), 1);
  await shot(B, 'players-lobby-seek-en');

  // Bob accepts (scrolled down the lobby): both pages open the same game at once, at its top.
  await B.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await row.locator('[data-testid^=accept-seek]').click();
  await A.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  await B.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  const id = gameId(A.url());
  assert.equal(gameId(B.url()), id, 'both players are in the same game');
  assert.equal(await B.evaluate(() => window.scrollY), 0, 'the game page starts at its top');

  // Names and provisional ratings beside the clocks; each sees their own side at the bottom.
  for (const p of [A, B]) {
    await waitFor(async () => (await text(p, '[data-testid=name-white]')).includes('alice'), 'white name');
    assert.match(await text(p, '[data-testid=name-white]'), /alice\s*1500\?/);
    assert.match(await text(p, '[data-testid=name-black]'), /bob\s*1500\?/);
  }
  assert.equal(await A.locator('.player.bottom [data-testid=name-white]').count(), 1, 'alice plays from the bottom');
  assert.equal(await B.locator('.player.bottom [data-testid=name-black]').count(), 1, 'bob plays from the bottom');
  assert.match(await text(A, '[data-testid=status]'), /You play White/);
  assert.match(await text(B, '[data-testid=status]'), /You play Black/);
  assert.equal(await text(A, '[data-testid=game-meta]'), 'Rated · Blitz · 5+3');

  // Fool's mate, moves by clicks (the seats are held by the accounts, no seat token).
  await play([A, B], ['f2f3', 'e7e5', 'g2g4', 'd8h4']);
  for (const p of [A, B]) {
    await p.locator('[data-testid=result]').waitFor();
    assert.equal(await p.locator('[data-testid=result]').getAttribute('data-text'), 'Black wins — checkmate, Art. 5.1.1');
  }
  // The rating changes: Alice lost points, Bob won them.
  let lost = '';
  let won = '';
  for (const p of [A, B]) {
    await waitFor(async () => (await p.locator('[data-testid=name-white] [data-testid=rating-diff]').count()) === 1, 'white rating change');
    lost = await text(p, '[data-testid=name-white] [data-testid=rating-diff]');
    won = await text(p, '[data-testid=name-black] [data-testid=rating-diff]');
    assert.match(lost, /^−\d+$/, `white's change ${lost}`);
    assert.match(won, /^\+\d+$/, `black's change ${won}`);
    assert.match(await text(p, '[data-testid=name-white]'), /1500\?/, 'the rating at the start stays beside the name');
  }
  await shot(A, 'players-rated-game-en');

  // Alice's profile (the header's link): the game, her new blitz rating, her loss.
  await A.locator('[data-testid=me]').click();
  await A.waitForURL(/\/@\/alice$/);
  const gameRow = A.locator(`[data-testid=games] tr[data-game="${id}"]`);
  await gameRow.waitFor();
  const rowText = (await gameRow.textContent()) ?? '';
  assert.match(rowText, /bob/);
  assert.match(rowText, /Lost/);
  assert.match(rowText, /5\+3/);
  assert.match(rowText, /Rated/);
  assert.match(rowText, new RegExp(lost));
  const newBlitz = 1500 - Number(lost.slice(1));
  assert.equal(await text(A, '[data-testid=rating-blitz]'), `${newBlitz}?`);
  assert.match(await text(A, '[data-testid=score] [data-count=losses]'), /1/);
  // All her games as PGN, with the names and the rating changes.
  const [download] = await Promise.all([A.waitForEvent('download'), A.locator('[data-testid=download-all]').click()]);
  const pgn = readFileSync(await download.path(), 'utf8');
  assert.match(pgn, /\[White "alice"\]/);
  assert.match(pgn, /\[Black "bob"\]/);
  assert.match(pgn, new RegExp(`\\[WhiteRatingDiff "-${lost.slice(1)}"\\]`));
  // Filters: no win to show, the loss under "Lost" and under Blitz, nothing under Bullet.
  await A.locator('[data-testid=filter-result]').selectOption('win');
  await A.locator('[data-testid=no-games]').waitFor();
  assert.match(A.url(), /result=win/);
  await A.locator('[data-testid=filter-result]').selectOption('loss');
  await gameRow.waitFor();
  await A.locator('[data-testid=filter-speed]').selectOption('bullet');
  await A.locator('[data-testid=no-games]').waitFor();
  await A.locator('[data-testid=filter-speed]').selectOption('blitz');
  await gameRow.waitFor();
  assert.equal(await text(A, '[data-testid=page]'), 'Page 1 of 1');
  // Bob's profile, reached through the opponent's name in the list.
  await gameRow.locator('a.username').click();
  await A.waitForURL(/\/@\/bob$/);
  await waitFor(async () => (await text(A, '[data-testid=rating-blitz]')) === `${1500 + Number(won.slice(1))}?`, "bob's new rating");
  assert.match(await text(A, '[data-testid=score] [data-count=wins]'), /1/);
  await shot(A, 'players-profile-en');
  // A row opens its game.
  await A.locator(`[data-testid=games] tr[data-game="${id}"] td`).nth(2).click();
  await A.waitForURL(new RegExp(`/game/${id}$`));
  // Opened afresh, the finished game still shows the changes (from the game's view).
  await waitFor(async () => (await A.locator('[data-testid=name-white] [data-testid=rating-diff]').count()) === 1, 'changes in the view');
  assert.equal(await text(A, '[data-testid=name-white] [data-testid=rating-diff]'), lost);
  assert.equal(await text(A, '[data-testid=name-black] [data-testid=rating-diff]'), won);

  // Rematch: Alice offers, Bob accepts; both land on the new game with colours swapped.
  await A.locator('[data-testid=rematch]').click();
  await A.locator('[data-testid=rematch-offered]').waitFor();
  await B.locator('[data-testid=rematch-offer]').waitFor();
  assert.match(await text(B, '[data-testid=rematch-offer]'), /Your opponent offers a rematch/);
  await B.locator('[data-testid=accept-rematch]').click();
  await waitFor(() => gameId(A.url()) !== id && /\/game\//.test(A.url()), 'alice in the rematch');
  await waitFor(() => gameId(B.url()) !== id && /\/game\//.test(B.url()), 'bob in the rematch');
  const rematch = gameId(A.url());
  assert.equal(gameId(B.url()), rematch, 'both in the same rematch');
  await waitFor(async () => /You play Black/.test(await text(A, '[data-testid=status]')), 'alice plays black now');
  await waitFor(async () => /You play White/.test(await text(B, '[data-testid=status]')), 'bob plays white now');
  assert.match(await text(A, '[data-testid=name-white]'), /bob/);
  assert.match(await text(A, '[data-testid=name-black]'), /alice/);
  assert.equal(await A.locator('.player.bottom [data-testid=name-black]').count(), 1, 'alice now sees Black at the bottom');
  // Ratings as they are now (no longer 1500 for both).
  assert.match(await text(A, '[data-testid=name-black]'), new RegExp(`${newBlitz}\\?`));
  // The rematch is played: Bob (White now) moves and Alice answers.
  await play([B, A], ['e2e4', 'e7e5']);
  await waitFor(async () => (await moveList(B)).join(' ') === 'e4 e5', 'moves in the rematch');
  await a.ctx.close();
  await b.ctx.close();
});

test('two players in the same pool are paired into one game', async () => {
  const c = await person(env.browser);
  const d = await person(env.browser);
  const C = c.page;
  const D = d.page;
  await signUp(C, 'carol');
  await signUp(D, 'dave');
  await C.locator('[data-testid="pool-3+0"]').click();
  await waitFor(async () => (await text(C, '[data-testid="pool-3+0"]')).includes('Searching'), 'carol searching');
  assert.equal(await C.locator('[data-testid=pool-cancel]').isVisible(), true, 'a way to stop searching');
  // Dave sees one player waiting in 3+0, live.
  await waitFor(async () => (await text(D, '[data-testid="pool-waiting-3+0"]')) === '1 waiting', 'dave sees carol waiting');
  await shot(C, 'players-pool-searching-en');
  await D.locator('[data-testid="pool-3+0"]').click();
  await C.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  await D.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  assert.equal(gameId(C.url()), gameId(D.url()), 'the same game');
  for (const p of [C, D]) {
    await waitFor(async () => /carol/.test(await text(p, '.board-col')) && /dave/.test(await text(p, '.board-col')), 'both names');
  }
  const cSeat = /You play (White|Black)/.exec(await text(C, '[data-testid=status]'))?.[1];
  const dSeat = /You play (White|Black)/.exec(await text(D, '[data-testid=status]'))?.[1];
  assert.ok(cSeat && dSeat && cSeat !== dSeat, `one white, one black: ${cSeat} ${dSeat}`);
  // Carol's profile lists the game as being played now, with a link to it.
  const paired = gameId(C.url());
  await D.goto(env.server.base + '/@/carol');
  await D.locator(`[data-testid=playing] a[href="/game/${paired}"]`).waitFor();
  // Stopping a search: Carol goes back, searches 1+0, then stops.
  await C.goto(env.server.base + '/');
  await C.locator('[data-testid="pool-1+0"]').click();
  await C.locator('[data-testid=pool-cancel]').click();
  await waitFor(async () => !(await text(C, '[data-testid="pool-1+0"]')).includes('Searching'), 'search stopped');
  await waitFor(async () => (await text(C, '[data-testid="pool-waiting-1+0"]')) === '0 waiting', 'nobody waits');
  // A casual Chess960 seek with a rating range appears for Dave, then goes when Carol cancels it.
  await D.goto(env.server.base + '/');
  await C.locator('[data-testid=create-seek] summary').click();
  await C.locator('[data-testid=seek-tc]').fill('10+5');
  await C.locator('[data-testid=seek-variant]').selectOption('chess960');
  await C.locator('[data-testid=seek-rated]').uncheck();
  await C.locator('[data-testid=seek-min]').fill('1400');
  await C.locator('[data-testid=seek-max]').fill('1700');
  await C.locator('[data-testid=post-seek]').click();
  const seek = D.locator('[data-testid=seeks] tr[data-user=carol]');
  await seek.waitFor();
  assert.match((await seek.textContent()) ?? '', /10\+5Casual · Chess960.*1400–1700/);
  // Carol's rating is 1500 in Chess960, Dave's too: he may accept; she may only cancel.
  assert.ok(await seek.locator('[data-testid^=accept-seek]').isEnabled());
  await C.locator('[data-testid=seeks] tr[data-user=carol] [data-testid^=cancel-seek]').click();
  await waitFor(async () => (await D.locator('[data-testid=seeks] tr[data-user=carol]').count()) === 0, 'seek gone for dave');
  await D.locator('[data-testid=no-seeks]').waitFor();
  // A bad time control is explained.
  await C.locator('[data-testid=create-seek] summary').click();
  await C.locator('[data-testid=seek-tc]').fill('nonsense');
  await C.locator('[data-testid=post-seek]').click();
  await waitFor(async () => (await text(C, '.seeks-card .error')).startsWith('This time control cannot be read'), 'bad time control');
  await c.ctx.close();
  await d.ctx.close();
});

test('log out, a wrong password is refused, log in; a visitor sees the leaderboard and a profile', async () => {
  const e = await person(env.browser);
  const E = e.page;
  await signUp(E, 'erin');
  await E.locator('[data-testid=logout]').click();
  await E.locator('[data-testid=login-link]').waitFor();
  assert.equal(await E.locator('[data-testid=me]').count(), 0);
  // The server forgot the session: a reload is still logged out.
  await E.reload();
  await E.locator('[data-testid=login-link]').waitFor();
  await E.locator('[data-testid=login-link]').click();
  await E.locator('[data-testid=username]').fill('erin');
  await E.locator('[data-testid=password]').fill('not the password');
  await E.locator('[data-testid=auth-submit]').click();
  await E.locator('[data-testid=auth-error]').waitFor();
  assert.equal(await text(E, '[data-testid=auth-error]'), 'Wrong username or password.');
  assert.match(E.url(), /\/login$/);
  await E.locator('[data-testid=password]').fill(PASSWORD);
  await E.locator('[data-testid=auth-submit]').click();
  await E.waitForURL(env.server.base + '/');
  await waitFor(async () => (await text(E, '[data-testid=me]')).includes('erin'), 'logged in again');
  // A taken name and a short password are explained.
  const f = await person(env.browser);
  const F = f.page;
  await F.goto(env.server.base + '/signup');
  await F.locator('[data-testid=username]').fill('ERIN');
  await F.locator('[data-testid=password]').fill(PASSWORD);
  await F.locator('[data-testid=auth-submit]').click();
  await waitFor(async () => (await text(F, '[data-testid=auth-error]')) === 'This username is already taken.', 'taken');
  await F.locator('[data-testid=username]').fill('frank');
  await F.locator('[data-testid=password]').fill('short');
  await F.locator('[data-testid=auth-submit]').click();
  await waitFor(async () => (await text(F, '[data-testid=auth-error]')) === 'The password must have at least 8 characters.', 'weak');
  await shot(F, 'players-signup-error-en');

  // A visitor: the lobby is read-only with a prompt to log in.
  await F.goto(env.server.base + '/');
  await F.locator('[data-testid=login-prompt]').waitFor();
  assert.ok(await F.locator('[data-testid="pool-5+3"]').isDisabled(), 'pools need an account');
  assert.equal(await F.locator('[data-testid=create-seek]').count(), 0, 'no seek form for visitors');
  // The leaderboard from the header, one tab per speed.
  await F.locator('[data-testid=leaderboard-link]').click();
  await F.waitForURL(/\/leaderboard/);
  assert.deepEqual(await F.locator('.tabs [role=tab]').allTextContents(), ['Bullet', 'Blitz', 'Rapid', 'Standard (slow)', 'Correspondence', 'Chess960']);
  assert.equal(await F.locator('.tabs [aria-selected=true]').textContent(), 'Blitz');
  await F.locator('[data-testid=leaderboard-empty]').waitFor();
  await F.locator('.tabs [data-speed=bullet]').click();
  assert.equal(await F.locator('.tabs [aria-selected=true]').textContent(), 'Bullet');
  assert.match(F.url(), /speed=bullet/);
  // A profile by its address; an unknown name says so.
  await F.goto(env.server.base + '/@/erin');
  await waitFor(async () => (await text(F, '[data-testid=profile-name]')) === 'erin', 'profile');
  assert.equal(await text(F, '[data-testid=rating-blitz]'), '1500?');
  await F.locator('[data-testid=no-games]').waitFor();
  await F.goto(env.server.base + '/@/nobody-here');
  await F.locator('[data-testid=no-such-player]').waitFor();
  assert.match(await text(F, '[data-testid=no-such-player]'), /There is no player called “nobody-here”/);
  await e.ctx.close();
  await f.ctx.close();
});

test('a rated game waiting for an opponent is listed with its creator and withdrawn', async () => {
  const g = await person(env.browser);
  const v = await person(env.browser);
  const G = g.page;
  const V = v.page;
  await signUp(G, 'gina');
  await G.locator('button.preset[data-tc="5+3"]').click();
  await G.locator('[data-testid=rated]').check();
  await G.locator('[data-testid=create]').click();
  await G.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  const id = gameId(G.url());
  await waitFor(async () => (await text(G, '[data-testid=name-white]')).includes('gina') || (await text(G, '[data-testid=name-black]')).includes('gina'), 'her name on the game');
  // Another visitor sees who created it and that it is rated.
  await V.goto(env.server.base + '/');
  const item = V.locator(`[data-testid=open-games] li:has([data-testid=join-${id}])`);
  await item.waitFor();
  assert.match((await item.textContent()) ?? '', /gina.*Rated/);
  // A visitor cannot take a seat in a rated game: the page asks to log in instead.
  await V.goto(`${env.server.base}/game/${id}`);
  await V.locator('[data-testid=rated-login]').waitFor();
  assert.equal(await V.locator('[data-testid=join]').count(), 0, 'no join button for a visitor');
  await V.goto(env.server.base + '/');
  // She withdraws it.
  await G.locator('[data-testid=withdraw]').click();
  await waitFor(async () => (await text(G, '[data-testid=status]')).includes('withdrawn'), 'withdrawn status');
  assert.equal(await G.locator('[data-testid=invite-link]').isVisible(), false, 'no invitation any more');
  assert.equal(await G.locator('[data-testid=withdraw]').count(), 0);
  await V.locator('.lists button.small').click();
  await waitFor(async () => (await V.locator(`[data-testid=join-${id}]`).count()) === 0, 'gone from the open games');
  await g.ctx.close();
  await v.ctx.close();
});

test('the account page: tokens shown once and revoked, the password changed, the account closed', async () => {
  const k = await person(env.browser);
  const K = k.page;
  await signUp(K, 'kim');
  await K.locator('[data-testid=account-link]').click();
  await K.waitForURL(/\/account$/);
  // A token: its secret is shown once, then it is listed by its description, then revoked.
  await K.locator('[data-testid=token-description]').fill('my bot');
  await K.locator('[data-testid=create-token]').click();
  const secret = await K.locator('[data-testid=token-value]').inputValue();
  assert.match(secret, /^arb_/);
  const me = await fetch(env.server.base + '/api/account', { headers: { Authorization: `Bearer ${secret}` } });
  assert.equal((await me.json()).username, 'kim', 'the token shown works');
  await waitFor(async () => (await text(K, '[data-testid=tokens]')).includes('my bot'), 'token listed');
  await K.locator('[data-testid=tokens] [data-testid^=revoke-]').click();
  await waitFor(async () => (await text(K, '[data-testid=tokens]')) === 'No tokens yet.', 'token revoked');
  const after = await fetch(env.server.base + '/api/account', { headers: { Authorization: `Bearer ${secret}` } });
  assert.equal(after.status, 401, 'a revoked token no longer works');
  // The password: a wrong current one is refused, then changed.
  await K.locator('[data-testid=current-password]').fill('wrong password');
  await K.locator('[data-testid=new-password]').fill('another good one');
  await K.locator('[data-testid=change-password]').click();
  await waitFor(async () => (await text(K, 'form:has([data-testid=change-password]) [role=status]')) === 'Wrong username or password.', 'refused');
  await K.locator('[data-testid=current-password]').fill(PASSWORD);
  await K.locator('[data-testid=new-password]').fill('another good one');
  await K.locator('[data-testid=change-password]').click();
  await waitFor(async () => (await text(K, 'form:has([data-testid=change-password]) [role=status]')).startsWith('Password changed'), 'changed');
  await shot(K, 'players-account-en');
  // Closing needs the password and a second click.
  await K.locator('[data-testid=close-password]').fill('another good one');
  await K.locator('[data-testid=close-account]').click();
  await K.locator('[data-testid=close-confirm]').click();
  await K.waitForURL(env.server.base + '/');
  await K.locator('[data-testid=login-link]').waitFor();
  await K.goto(env.server.base + '/@/kim');
  await K.locator('[data-testid=closed]').waitFor();
  await k.ctx.close();
});

test('too many wrong passwords: the wait is shown in seconds', async () => {
  const x = await person(env.browser);
  const X = x.page;
  await X.goto(env.server.base + '/login');
  await X.locator('[data-testid=username]').fill('nobody-at-all');
  let message = '';
  for (let i = 0; i < 15 && !/Try again/.test(message); i++) {
    await X.locator('[data-testid=password]').fill(`guess number ${i}`);
    await X.locator('[data-testid=auth-submit]').click();
    await waitFor(async () => !(await X.locator('[data-testid=auth-submit]').isDisabled()), 'answer');
    message = await text(X, '[data-testid=auth-error]');
  }
  assert.match(message, /^Too many attempts\. Try again in \d+ s\.$/);
  await x.ctx.close();
});

test('a rematch between anonymous players keeps each seat with its token, colours swapped', async () => {
  const w = await person(env.browser);
  const b = await person(env.browser);
  const W = w.page;
  const B = b.page;
  await W.goto(env.server.base + '/');
  assert.equal(await W.locator('[data-testid=rated]').count(), 0, 'no rated box without an account');
  await W.locator('label.color-white input').check();
  await W.locator('[data-testid=create]').click();
  await W.waitForURL(/\/game\//);
  const id = gameId(W.url());
  await B.goto(await W.locator('[data-testid=invite-link]').inputValue());
  await B.locator('[data-testid=join]').click();
  await waitFor(async () => /You play Black/.test(await text(B, '[data-testid=status]')), 'black seat');
  assert.match(await text(W, '[data-testid=name-white]'), /^White ★ · Anonymous$/);
  assert.match(await text(W, '[data-testid=game-meta]'), /^Casual · Blitz · 5\+3$/);
  await W.locator('[data-testid=resign]').click();
  await W.locator('[data-testid=confirm-yes]').click();
  await B.locator('[data-testid=rematch]').click();
  await W.locator('[data-testid=accept-rematch]').waitFor();
  await W.locator('[data-testid=accept-rematch]').click();
  await waitFor(() => gameId(W.url()) !== id && gameId(B.url()) !== id, 'both in the rematch');
  assert.equal(gameId(W.url()), gameId(B.url()));
  await waitFor(async () => /You play White/.test(await text(B, '[data-testid=status]')), 'colours swapped for B');
  await waitFor(async () => /You play Black/.test(await text(W, '[data-testid=status]')), 'colours swapped for W');
  // The seats work: the new White moves, the new Black answers.
  await play([B, W], ['e2e4', 'e7e5']);
  await waitFor(async () => (await moveList(W)).join(' ') === 'e4 e5', 'moves in the rematch');
  // The old game points to the rematch.
  await W.goBack();
  await W.locator('[data-testid=go-rematch]').waitFor();
  await w.ctx.close();
  await b.ctx.close();
});
