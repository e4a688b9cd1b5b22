// A manual trial (not part of `npm run e2e`): two players in two browsers play through a load
// balancer in front of several cluster nodes; the game's owner is killed mid-game. Usage:
//   node e2e/cluster-trial.mjs http://127.0.0.1:8080 OUT_DIR
// Prints the nodes that answered and writes screenshots.
import { chromium } from 'playwright-core';
import { execSync } from 'node:child_process';

const [base, out] = process.argv.slice(2);
const api = async (path, init = {}) => {
  const r = await fetch(base + path, { ...init, headers: { 'content-type': 'application/json', origin: base, ...(init.headers ?? {}) } });
  return { node: r.headers.get('x-arbiter-node'), status: r.status, body: await r.json() };
};
const created = await api('/api/games', { method: 'POST', body: JSON.stringify({ time_control: '10+5', color: 'white' }) });
const joined = await api(`/api/games/${created.body.id}/join`, { method: 'POST' });
const id = created.body.id;
console.log('created on', created.node, 'joined on', joined.node, 'game', id);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium' });
const seat = async (grant) => {
  const ctx = await browser.newContext({ viewport: { width: 1100, height: 800 } });
  await ctx.addInitScript(([k, v]) => localStorage.setItem(k, v), [`arbiter.seat.${id}`, JSON.stringify({ seat: grant.seat, token: grant.token })]);
  const page = await ctx.newPage();
  await page.goto(`${base}/game/${id}`);
  return page;
};
const white = await seat(created.body);
const black = await seat(joined.body);
const play = async (page, from, to) => {
  const box = await page.locator('cg-board').boundingBox();
  const sq = (s) => {
    const f = s.charCodeAt(0) - 97, r = Number(s[1]) - 1;
    return { x: box.x + (f + 0.5) * box.width / 8, y: box.y + (7 - r + 0.5) * box.height / 8 };
  };
  const orient = await page.locator('.cg-wrap').getAttribute('class');
  const flip = orient.includes('orientation-black');
  const at = (s) => { const p = sq(s); return flip ? { x: box.x + box.width - (p.x - box.x), y: box.y + box.height - (p.y - box.y) } : p; };
  const a = at(from), b = at(to);
  await page.mouse.click(a.x, a.y);
  await page.mouse.click(b.x, b.y);
};
const seq = async () => (await api(`/api/games/${id}`)).body.last_seq;
const waitSeq = async (n) => { for (let i = 0; i < 100 && (await seq()) < n; i++) await new Promise((r) => setTimeout(r, 200)); return seq(); };
await white.waitForSelector('cg-board');
await black.waitForSelector('cg-board');
await play(white, 'e2', 'e4'); console.log('after e4, seq', await waitSeq(2));
await play(black, 'e7', 'e5'); console.log('after e5, seq', await waitSeq(3));
const owner = execSync(`psql -qtA ${process.env.DB} -c "select owner_node from games where id='${id}'"`).toString().trim();
console.log('owner', owner, '— killing it');
execSync(`pkill -9 -f "[-]-node-id ${owner} "`);
await new Promise((r) => setTimeout(r, 500));
await play(white, 'g1', 'f3'); console.log('after Nf3 (owner dead), seq', await waitSeq(4));
await play(black, 'b8', 'c6'); console.log('after Nc6, seq', await waitSeq(5));
const newOwner = execSync(`psql -qtA ${process.env.DB} -c "select owner_node from games where id='${id}'"`).toString().trim();
console.log('new owner', newOwner);
await new Promise((r) => setTimeout(r, 1500));
await white.screenshot({ path: `${out}/cluster-white.png` });
await black.screenshot({ path: `${out}/cluster-black.png` });
const view = await api(`/api/games/${id}`);
console.log('moves', view.body.moves.map((m) => m.san).join(' '), 'clocks', JSON.stringify(view.body.clocks));
await browser.close();
