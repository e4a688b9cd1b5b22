// Screenshots of the analysis board: `node e2e/screenshots-analysis.mjs OUTDIR`. Plays Morphy's
// Opera Game (Paris 1858) through the API, asks for the server's analysis when the server has
// it, and photographs the game's analysis board with a variation and the engine (desktop,
// English), the same on a phone in Persian, and the free board in Chess960.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { startServer, startBrowser, person, clickMove, waitFor, arbiterBin } from './harness.mjs';

const out = process.argv[2] ?? 'shots';
mkdirSync(out, { recursive: true });
const help = execFileSync(arbiterBin(), ['serve', '--help'], { encoding: 'utf8' });
const args = help.includes('--analysis-nodes') ? ['--analysis-nodes', '20000'] : help.includes('--analysis-depth') ? ['--analysis-depth', '6'] : [];
const server = await startServer(args);
const browser = await startBrowser();

// python-chess: the Opera Game's SAN as UCI, ending in 17. Rd8#.
const OPERA = 'e2e4 e7e5 g1f3 d7d6 d2d4 c8g4 d4e5 g4f3 d1f3 d6e5 f1c4 g8f6 f3b3 d8e7 b1c3 c7c6 c1g5 b7b5 c3b5 c6b5 c4b5 b8d7 e1c1 a8d8 d1d7 d8d7 h1d1 e7e6 b5d7 f6d7 b3b8 d7b8 d1d8'.split(' ');

async function call(method, path, body, token, cookie) {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (cookie) headers.Cookie = cookie;
  const res = await fetch(server.base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return { data: text ? JSON.parse(text) : null, res };
}

try {
  const w = (await call('POST', '/api/games', { time_control: '10+5', variant: 'standard', color: 'white' })).data;
  const b = (await call('POST', `/api/games/${w.id}/join`, {})).data;
  for (let i = 0; i < OPERA.length; i++) await call('POST', `/api/games/${w.id}/move`, { move: OPERA[i] }, i % 2 === 0 ? w.token : b.token);
  const signup = await call('POST', '/api/account', { username: 'morphy', password: 'correct horse battery' });
  const cookie = signup.res.headers.get('set-cookie').split(';')[0];
  let analysed = false;
  try {
    await call('POST', `/api/games/${w.id}/analysis`, {}, undefined, cookie);
    await waitFor(async () => (await call('GET', `/api/games/${w.id}/analysis`)).data?.state === 'done', 'analysis', 300000);
    analysed = true;
  } catch (e) {
    console.error(`no server analysis: ${e.message}`);
  }

  const photograph = async (name, opts, steps) => {
    const { ctx, page } = await person(browser, opts);
    await page.goto(`${server.base}/game/${w.id}/analysis`);
    await page.locator('[data-testid=an-moves]').waitFor();
    await steps(page);
    await page.waitForTimeout(600);
    await page.screenshot({ path: join(out, `${name}.png`), fullPage: true });
    await ctx.close();
  };
  const variationAndEngine = async (page) => {
    // To 9... b5 (ply 18), then a side line 10. Bxb5+ instead of Nxb5.
    await page.keyboard.press('Home');
    for (let i = 0; i < 18; i++) await page.keyboard.press('ArrowRight');
    await clickMove(page, 'c4b5');
    await page.waitForTimeout(200);
    await clickMove(page, 'c6b5');
    await page.waitForTimeout(200);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowLeft');
    if (analysed) {
      // 13... Rxd7 … the mark closest to the end, shown with its better move.
      const marks = page.locator('.an-move.mistake, .an-move.blunder, .an-move.inaccuracy');
      if (await marks.count()) await marks.last().click();
    }
    await page.locator('[data-testid=engine-toggle]').check();
    await page.waitForTimeout(3000);
  };
  await photograph('analysis-desktop-en', {}, variationAndEngine);
  await photograph('analysis-phone-fa', { locale: 'fa-IR', viewport: { width: 390, height: 844 } }, variationAndEngine);

  const { ctx, page } = await person(browser);
  await page.goto(`${server.base}/analysis?variant=chess960&position=0`);
  await page.locator('[data-testid=board]').waitFor();
  for (const m of ['e2e4', 'e7e5', 'd1e3']) {
    await clickMove(page, m);
    await page.waitForTimeout(150);
  }
  await page.screenshot({ path: join(out, 'analysis-chess960-en.png'), fullPage: true });
  await ctx.close();
} finally {
  await browser.close();
  await server.stop();
}
