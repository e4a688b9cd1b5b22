// Screenshots of the players' pages: `node e2e/screenshots-players.mjs OUTDIR`. Seeds a few
// accounts and rated games through the API (enough for a leaderboard and a second page of
// games), then photographs the lobby, sign-up, profile, leaderboard, account page and a
// finished rated game with its rating changes, in English and in Persian (right to left).

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, startBrowser, person, clickMove, moveList, waitFor } from './harness.mjs';

const out = process.argv[2] ?? 'shots';
mkdirSync(out, { recursive: true });
const server = await startServer();
const browser = await startBrowser();
const PASSWORD = 'correct horse battery';

/** An account driven by fetch with its session cookie. */
async function apiUser(name) {
  const r = await fetch(server.base + '/api/account', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: name, password: PASSWORD }),
  });
  if (!r.ok) throw new Error(`sign-up ${name}: ${r.status} ${await r.text()}`);
  const cookie = r.headers.get('set-cookie').split(';')[0];
  return async (method, path, body) => {
    const res = await fetch(server.base + path, {
      method,
      headers: { Cookie: cookie, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
}

/** A rated game between two API users, decided by resignation (or a draw by agreement). */
async function ratedGame(white, black, tc, outcome) {
  const g = await white('POST', '/api/games', { time_control: tc, color: 'white', rated: true });
  await black('POST', `/api/games/${g.id}/join`, {});
  await white('POST', `/api/games/${g.id}/move`, { move: 'e4' });
  await black('POST', `/api/games/${g.id}/move`, { move: 'e5' });
  if (outcome === 'white') await black('POST', `/api/games/${g.id}/resign`, {});
  else if (outcome === 'black') await white('POST', `/api/games/${g.id}/resign`, {});
  else {
    await white('POST', `/api/games/${g.id}/draw`, { action: 'offer' });
    await black('POST', `/api/games/${g.id}/draw`, { action: 'accept' });
  }
}

async function signUpInBrowser(page, name) {
  await page.goto(server.base + '/signup');
  await page.locator('[data-testid=username]').fill(name);
  await page.locator('[data-testid=password]').fill(PASSWORD);
  await page.locator('[data-testid=auth-submit]').click();
  await page.waitForURL(server.base + '/');
  await page.locator('[data-testid=me]').waitFor();
}

try {
  // Seed: four players, many bullet games (settled ratings for the leaderboard) and a few blitz.
  const names = ['magnus', 'hikaru', 'alireza', 'judit'];
  const users = {};
  for (const n of names) users[n] = await apiUser(n);
  // Mostly draws between equals (results as expected lower the volatility, so the RDs settle
  // under 75 and the leaderboard fills); the stronger, earlier in the list, wins the rest.
  for (let i = 0; i < 240; i++) {
    const x = i % 4;
    const y = (x + 1 + (Math.floor(i / 4) % 3)) % 4;
    const [w, b] = i % 2 ? [names[x], names[y]] : [names[y], names[x]];
    const strongerIsWhite = names.indexOf(w) < names.indexOf(b);
    const outcome = i % 7 !== 3 ? 'draw' : strongerIsWhite ? 'white' : 'black';
    await ratedGame(users[w], users[b], i % 12 === 0 ? '3+2' : '1+0', outcome);
  }
  const settled = await (await fetch(server.base + '/api/users/magnus')).json();
  console.log('magnus bullet', JSON.stringify(settled.ratings.bullet), 'leaders', (await (await fetch(server.base + '/api/leaderboard/bullet')).json()).length);
  // Someone waits in the lobby: a seek and a pool place (kept 30 s without a socket).
  await users.hikaru('POST', '/api/seeks', { time_control: '5+3', variant: 'standard', rated: true, color: 'random', rating_min: 1200, rating_max: 1900 });
  await users.judit('POST', '/api/seeks', { time_control: '15+10', variant: 'chess960', rated: false, color: 'black' });
  await users.alireza('POST', '/api/pools/3%2B0/join', {});

  for (const [tag, locale, viewport] of [
    ['desktop-en', 'en-GB', { width: 1280, height: 860 }],
    ['desktop-fa', 'fa-IR', { width: 1280, height: 860 }],
    ['phone-en', 'en-GB', { width: 390, height: 844 }],
    ['desktop-cs', 'cs-CZ', { width: 1280, height: 860 }],
  ]) {
    const a = await person(browser, { locale, viewport });
    const b = await person(browser, { locale, viewport });
    const A = a.page;
    const B = b.page;
    // Sign-up page with an error from the server.
    await A.goto(server.base + '/signup');
    await A.locator('[data-testid=username]').fill('magnus');
    await A.locator('[data-testid=password]').fill(PASSWORD);
    await A.locator('[data-testid=auth-submit]').click();
    await A.locator('[data-testid=auth-error]').waitFor();
    await A.screenshot({ path: join(out, `signup-${tag}.png`), fullPage: true });
    const me = `ann_${tag.replace(/-/g, '')}`.slice(0, 20);
    const you = `ben_${tag.replace(/-/g, '')}`.slice(0, 20);
    await signUpInBrowser(A, me);
    await signUpInBrowser(B, you);
    // The lobby, logged in, searching in a pool, with seeks of others and one's own.
    await A.locator('[data-testid="pool-5+0"]').click();
    await A.locator('[data-testid=create-seek] summary').click();
    await A.locator('[data-testid=seek-color-white]').check();
    await A.locator('[data-testid=post-seek]').click();
    await A.locator(`[data-testid=seeks] tr[data-user=${me}]`).waitFor();
    await A.locator('[data-testid=pool-cancel]').click();
    await B.locator(`[data-testid=seeks] tr[data-user=${me}]`).waitFor();
    await B.locator('[data-testid="pool-3+0"]').hover();
    await B.screenshot({ path: join(out, `lobby-${tag}.png`), fullPage: true });
    // A rated game from the seek, to mate, with the rating changes.
    await B.locator(`[data-testid=seeks] tr[data-user=${me}] [data-testid^=accept-seek]`).click();
    await A.waitForURL(/\/game\//);
    await B.waitForURL(/\/game\//);
    const moves = ['f2f3', 'e7e5', 'g2g4', 'd8h4'];
    for (let i = 0; i < moves.length; i++) {
      const p = i % 2 === 0 ? A : B;
      await waitFor(async () => (await moveList(p)).length === i, `ply ${i} (${tag})`);
      await clickMove(p, moves[i]);
    }
    await A.locator('[data-testid=name-white] [data-testid=rating-diff]').waitFor();
    await B.locator('[data-testid=name-white] [data-testid=rating-diff]').waitFor();
    await A.locator('[data-testid=rematch]').click();
    await B.locator('[data-testid=rematch-offer]').waitFor();
    await A.waitForTimeout(300);
    await A.screenshot({ path: join(out, `rated-game-${tag}.png`), fullPage: true });
    await B.screenshot({ path: join(out, `rated-game-black-${tag}.png`), fullPage: true });
    // A settled player's profile (two pages of games), the leaderboard, the account page.
    await A.goto(server.base + '/@/magnus');
    await A.locator('[data-testid=games] tbody tr').first().waitFor();
    await A.screenshot({ path: join(out, `profile-${tag}.png`), fullPage: true });
    await A.goto(server.base + '/leaderboard?speed=bullet');
    await A.locator('[data-testid=leaderboard] tbody tr, [data-testid=leaderboard-empty]').first().waitFor();
    await A.waitForTimeout(200);
    await A.screenshot({ path: join(out, `leaderboard-${tag}.png`), fullPage: true });
    await A.goto(server.base + '/account');
    await A.locator('[data-testid=token-description]').fill('analysis bot');
    await A.locator('[data-testid=create-token]').click();
    await A.locator('[data-testid=token-value]').waitFor();
    await A.screenshot({ path: join(out, `account-${tag}.png`), fullPage: true });
    await a.ctx.close();
    await b.ctx.close();
  }
  // A visitor's lobby: read-only, with the prompt to log in.
  const v = await person(browser, { locale: 'en-GB', viewport: { width: 1280, height: 860 } });
  await v.page.goto(server.base + '/');
  await v.page.locator('[data-testid=login-prompt]').waitFor();
  await v.page.waitForTimeout(300);
  await v.page.screenshot({ path: join(out, 'lobby-visitor-desktop-en.png'), fullPage: true });
  await v.ctx.close();
} finally {
  await browser.close();
  await server.stop();
}
console.log(`screenshots in ${out}`);
