// Screenshots of the tournament pages: `node e2e/screenshots-tournaments.mjs OUTDIR`. Seeds a
// Swiss through the API (a director, five accounts, two players entered by name; round 1 played,
// round 2 in progress) and an upcoming round robin, then photographs the list, the creation form
// and the tournament's page as a player and as the director, on a desktop and a phone, in
// English and in Persian (right to left).

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, startBrowser, person } from './harness.mjs';

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

/** Logs a browser context in as `name` (the session cookie lands in the context). */
async function logIn(ctx, name) {
  const r = await ctx.request.post(server.base + '/api/session', { data: { username: name, password: PASSWORD } });
  if (!r.ok()) throw new Error(`log-in ${name}: ${r.status()}`);
}

try {
  const names = ['magnus', 'hikaru', 'alireza', 'judit', 'wesley', 'anna_m'];
  const users = {};
  for (const n of names) users[n] = await apiUser(n);
  const director = users.magnus;
  const t = await director('POST', '/api/tournaments', {
    name: 'Tuesday blitz — Arbiter club',
    system: 'swiss',
    rounds: 5,
    time_control: '5+3',
    rated: true,
    pause_secs: null,
    tiebreaks: ['BH/C1', 'BH', 'SB', 'DE', 'ARO'],
  });
  const id = t.id;
  for (const n of names.slice(1)) await users[n]('POST', `/api/tournaments/${id}/register`, {});
  await director('POST', `/api/tournaments/${id}/players`, { name: 'Bořek Novák', rating: 2010, title: 'FM', federation: 'CZE' });
  await director('POST', `/api/tournaments/${id}/players`, { name: 'Shirin Karimi', rating: 1720, federation: 'IRI' });
  await director('POST', `/api/tournaments/${id}/start`, {});
  // Round 1: online games decided by a resignation or a draw, the others typed by the director.
  const state = await director('GET', `/api/tournaments/${id}`);
  const byNo = Object.fromEntries(state.players.map((p) => [p.no, p.username]));
  const outcomes = ['1-0', '1/2-1/2', '0-1'];
  for (const [i, b] of state.rounds[0].boards.entries()) {
    const outcome = outcomes[i % 3];
    if (b.game && byNo[b.white] && byNo[b.black]) {
      const W = users[byNo[b.white]];
      const B = users[byNo[b.black]];
      await W('POST', `/api/games/${b.game}/move`, { move: 'e4' });
      await B('POST', `/api/games/${b.game}/move`, { move: 'e5' });
      if (outcome === '1-0') await B('POST', `/api/games/${b.game}/resign`, {});
      else if (outcome === '0-1') await W('POST', `/api/games/${b.game}/resign`, {});
      else {
        await W('POST', `/api/games/${b.game}/draw`, { action: 'offer' });
        await B('POST', `/api/games/${b.game}/draw`, { action: 'accept' });
      }
    } else await director('POST', `/api/tournaments/${id}/rounds/1/boards/${b.board}/result`, { result: outcome });
  }
  await director('POST', `/api/tournaments/${id}/pair`, {});
  // Round 2 under way: one board already decided by the director.
  const s2 = await director('GET', `/api/tournaments/${id}`);
  const typed = s2.rounds[1].boards.find((b) => !b.game);
  if (typed) await director('POST', `/api/tournaments/${id}/rounds/2/boards/${typed.board}/result`, { result: '0-1' });
  // An upcoming round robin, starting tomorrow.
  await users.judit('POST', '/api/tournaments', { name: 'Sunday round robin', system: 'round_robin', time_control: '15+10', starts_at: Date.now() + 86_400_000 });
  const player = s2.players.find((p) => p.username && s2.rounds[1].boards.some((b) => b.game && (b.white === p.no || b.black === p.no)));

  for (const [tag, locale, viewport] of [
    ['desktop-en', 'en-GB', { width: 1280, height: 860 }],
    ['phone-en', 'en-GB', { width: 390, height: 844 }],
    ['desktop-fa', 'fa-IR', { width: 1280, height: 860 }],
    ['phone-fa', 'fa-IR', { width: 390, height: 844 }],
  ]) {
    const a = await person(browser, { locale, viewport });
    await logIn(a.ctx, player.username);
    await a.page.goto(server.base + '/tournaments');
    await a.page.locator('[data-testid=tournaments-running] tbody tr').first().waitFor();
    await a.page.screenshot({ path: join(out, `tournaments-list-${tag}.png`), fullPage: true });
    // The player's page: their game of round 2 opens by itself once; the page is photographed
    // after coming back.
    await a.page.goto(`${server.base}/tournament/${id}`);
    await a.page.waitForURL(/\/game\//, { timeout: 5000 }).catch(() => {});
    await a.page.goto(`${server.base}/tournament/${id}`);
    await a.page.locator('[data-testid=standings] tbody tr').first().waitFor();
    await a.page.waitForTimeout(300);
    await a.page.screenshot({ path: join(out, `tournament-player-${tag}.png`), fullPage: true });
    await a.ctx.close();
    const d = await person(browser, { locale, viewport });
    await logIn(d.ctx, 'magnus');
    await d.page.goto(`${server.base}/tournament/${id}`);
    await d.page.locator('[data-testid=console]').waitFor();
    await d.page.locator('[data-testid=explanation] summary').click();
    await d.page.waitForTimeout(300);
    await d.page.screenshot({ path: join(out, `tournament-director-${tag}.png`), fullPage: true });
    await d.page.goto(`${server.base}/tournament/new`);
    await d.page.locator('[data-testid=t-more] summary').click();
    await d.page.screenshot({ path: join(out, `tournament-create-${tag}.png`), fullPage: true });
    await d.ctx.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
console.log(`screenshots in ${out}`);
