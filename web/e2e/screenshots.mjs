// Screenshots for looking at the UI and for the README: `node e2e/screenshots.mjs OUTDIR`.
// Plays a few moves between two browsers and photographs desktop and phone sizes, English
// and Persian (right to left).

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, startBrowser, person, clickMove, moveList, waitFor } from './harness.mjs';

const out = process.argv[2] ?? 'shots';
mkdirSync(out, { recursive: true });
const server = await startServer();
const browser = await startBrowser();
try {
  for (const [name, locale, viewport] of [
    ['desktop-en', 'en-GB', { width: 1280, height: 800 }],
    ['phone-fa', 'fa-IR', { width: 390, height: 844 }],
    ['desktop-fa', 'fa-IR', { width: 1280, height: 800 }],
    ['phone-en', 'en-GB', { width: 390, height: 844 }],
    ['desktop-cs', 'cs-CZ', { width: 1280, height: 800 }],
  ]) {
    const a = await person(browser, { locale, viewport });
    const b = await person(browser, { locale, viewport });
    await a.page.goto(server.base + '/');
    await a.page.locator('label.color-white input').check();
    await a.page.screenshot({ path: join(out, `lobby-${name}.png`), fullPage: true });
    await a.page.locator('[data-testid=create]').click();
    await a.page.waitForURL(/\/game\//);
    await a.page.locator('[data-testid=invite-link]').waitFor();
    await a.page.screenshot({ path: join(out, `waiting-${name}.png`), fullPage: true });
    const link = await a.page.locator('[data-testid=invite-link]').inputValue();
    await b.page.goto(link);
    await b.page.locator('[data-testid=join]').click();
    const moves = ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1c4', 'f8c5', 'c2c3', 'g8f6'];
    for (let i = 0; i < moves.length; i++) {
      const p = i % 2 === 0 ? a.page : b.page;
      await waitFor(async () => (await moveList(p)).length === i, `ply ${i}`);
      await clickMove(p, moves[i]);
    }
    await waitFor(async () => (await moveList(a.page)).length === moves.length, 'all moves');
    await b.page.locator('[data-testid=offer-draw]').click();
    await a.page.locator('[data-testid=decline-draw]').waitFor();
    await a.page.locator('cg-board').click({ position: { x: 5, y: 5 }, trial: true });
    await a.page.waitForTimeout(300);
    await a.page.screenshot({ path: join(out, `game-${name}.png`), fullPage: true });
    await b.page.screenshot({ path: join(out, `game-black-${name}.png`), fullPage: true });
    await a.ctx.close();
    await b.ctx.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
console.log(`screenshots in ${out}`);
