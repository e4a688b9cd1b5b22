// Tournaments in the browser: a director creates a round robin from the form, three players
// join from the tournament's page, the director starts it and each paired player's game opens by
// itself; a game played to mate shows its result in the pairings, the standings and the
// crosstable; the next round's game opens from the last game's page; the director corrects a
// result from the console and everyone's standings change. Then a Swiss: the form's errors come
// from the server, the console is the director's alone, players entered by name, byes, pause.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, person, clickMove, moveList, clockMs, waitFor, shot } from './harness.mjs';

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

const text = async (page, sel) => ((await page.locator(sel).first().textContent()) ?? '').trim();
const api = async (path) => (await fetch(env.server.base + path)).json();
const tid = (url) => new URL(url).pathname.split('/').pop();
const gameId = (url) => new URL(url).pathname.split('/').pop();

/** Plays moves alternately on two pages, each once the previous one has reached it. */
async function play(pages, moves) {
  for (let i = 0; i < moves.length; i++) {
    const p = pages[i % 2];
    await waitFor(async () => (await moveList(p)).length === i, `ply ${i}`);
    await clickMove(p, moves[i]);
  }
}

test('a round robin: join, start, games open by themselves, results and a correction', async () => {
  const people = {};
  for (const name of ['dora', 'alice', 'bob', 'carol']) {
    people[name] = await person(env.browser);
    await signUp(people[name].page, name);
  }
  const D = people.dora.page;

  // The director: the header's link, the list, the form; a round robin paired by hand.
  await D.locator('[data-testid=tournaments-link]').click();
  await D.waitForURL(/\/tournaments$/);
  await D.locator('[data-testid=tournaments-upcoming-empty]').waitFor();
  await D.locator('[data-testid=new-tournament]').click();
  await D.waitForURL(/\/tournament\/new$/);
  assert.equal(await D.locator('[data-testid=t-name]').inputValue(), 'dora’s tournament', 'a name is proposed');
  await D.locator('[data-testid=t-name]').fill('Club round robin');
  await D.locator('[data-testid=t-system]').selectOption('round_robin');
  assert.equal(await D.locator('[data-testid=t-rounds]').isVisible(), false, 'a round robin has no number of rounds to choose');
  await D.locator('button.preset[data-tc="10+5"]').click();
  await D.locator('[data-testid=t-more] summary').click();
  await D.locator('[data-testid=t-pause-manual]').check();
  // Art. 11.3: this club lets its players chat during their games.
  assert.equal(await D.locator('[data-testid=t-players-chat]').isChecked(), false, 'the players’ chat is closed by default');
  await D.locator('[data-testid=t-players-chat]').check();
  assert.deepEqual(await D.locator('[data-testid=t-tiebreaks] li').evaluateAll((l) => l.map((x) => x.dataset.tb)), ['DE', 'SB', 'WIN', 'KS'], 'round-robin tie-breaks');
  await shot(D, 'tournament-create-en');
  await D.locator('[data-testid=t-create]').click();
  await D.waitForURL(/\/tournament\/(?!new$)[A-Za-z0-9_-]+$/);
  const id = tid(D.url());
  await waitFor(async () => (await text(D, '[data-testid=tournament-name]')) === 'Club round robin', 'the page of the tournament');
  assert.equal(await text(D, '[data-testid=tournament-status]'), 'Upcoming');
  await D.locator('[data-testid=console]').waitFor();
  await D.locator('[data-testid=no-players]').waitFor();
  assert.equal((await api(`/api/tournaments/${id}`)).settings.players_chat, true, 'players_chat sent');
  assert.equal(await text(D, '[data-testid=players-chat]'), 'open during games');

  // Three players find it in the list and join; the director sees them arrive live.
  for (const name of ['alice', 'bob', 'carol']) {
    const P = people[name].page;
    await P.goto(env.server.base + '/tournaments');
    await P.locator(`[data-testid=tournament-${id}]`).click();
    await P.waitForURL(new RegExp(`/tournament/${id}$`));
    assert.equal(await P.locator('[data-testid=console]').count(), 0, 'no console for a player');
    await P.locator('[data-testid=join-tournament]').click();
    await P.locator('[data-testid=registered]').waitFor();
    await P.locator('[data-testid=withdraw-tournament]').waitFor();
  }
  await waitFor(async () => (await D.locator('[data-testid=players] tbody tr').count()) === 3, 'three players on the director’s page');
  // A second registration is refused (the server says so; the page shows it).
  const again = await people.alice.page.evaluate(async (tid) => (await fetch(`/api/tournaments/${tid}/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).status, id);
  assert.equal(again, 409);

  // Start: round 1 is paired; the two paired players' pages open their game by themselves.
  await D.locator('[data-testid=console-start]').click();
  await waitFor(async () => (await text(D, '[data-testid=tournament-status]')) === 'Running', 'running');
  const t1 = await api(`/api/tournaments/${id}`);
  const byNo = Object.fromEntries(t1.players.map((p) => [p.no, p.username]));
  const board = t1.rounds[0].boards[0];
  const white = people[byNo[board.white]].page;
  const black = people[byNo[board.black]].page;
  const resting = ['alice', 'bob', 'carol'].find((n) => n !== byNo[board.white] && n !== byNo[board.black]);
  for (const p of [white, black]) await p.waitForURL(new RegExp(`/game/${board.game}$`), { timeout: 10000 });
  assert.match(people[resting].page.url(), new RegExp(`/tournament/${id}$`), 'the player with the free round stays');
  // The game page links back when the game view names its tournament.
  const inTournament = (await api(`/api/games/${board.game}`)).tournament;
  if (inTournament) {
    await white.locator('[data-testid=game-tournament]').waitFor();
    assert.match(await text(white, '[data-testid=game-tournament]'), /Club round robin/);
  }
  await shot(white, 'tournament-game-opened-en');

  // Fool's mate if White is… the loser: Black mates. The result reaches every page.
  await play([white, black], ['f2f3', 'e7e5', 'g2g4', 'd8h4']);
  await white.locator('[data-testid=result]').waitFor();
  await waitFor(async () => (await text(D, '[data-testid=result-1-1]')) === '0–1', 'the result in the director’s pairings');
  const blackName = byNo[board.black];
  const whiteName = byNo[board.white];
  await waitFor(async () => (await text(D, `[data-testid=standings] tr[data-player="${board.black}"] [data-tb=PTS]`)) === '1', 'the winner’s point');
  assert.equal(await text(D, '[data-testid=standings] tbody tr:first-child .username'), blackName, 'the winner leads');
  assert.match(await text(D, `[data-testid=crosstable] tr[data-player="${board.black}"]`), new RegExp(`${board.white}.*1`));
  await shot(D, 'tournament-round1-director-en');

  // The next round, paired by the director: the players' games open, from a game page too.
  await D.locator('[data-testid=console-pair]').click();
  await waitFor(async () => (await api(`/api/tournaments/${id}`)).current_round === 2, 'round 2 paired');
  const t2 = await api(`/api/tournaments/${id}`);
  for (const b of t2.rounds[1].boards) {
    for (const no of [b.white, b.black]) await people[byNo[no]].page.waitForURL(new RegExp(`/game/${b.game}$`), { timeout: 10000 });
  }
  // An Art. 12.9 penalty from the console: two minutes added to White's clock of board 1.
  const pen = t2.rounds[1].boards[0];
  const penWhite = people[byNo[pen.white]].page;
  await D.locator('[data-testid=console-penalty-board]').selectOption(String(pen.board));
  await D.locator('[data-testid=console-penalty-player]').selectOption('white');
  await D.locator('[data-testid=console-penalty-kind]').selectOption('add_time');
  await D.locator('[data-testid=console-penalty-seconds]').fill('120');
  await D.locator('[data-testid=console-apply-penalty]').click();
  await waitFor(async () => (await text(D, '[data-testid=console-penalty-status]')) === 'Done.', 'penalty applied');
  await waitFor(async () => (await clockMs(penWhite, 'white')) > 10 * 60_000, 'white has more than the base time');
  // A second penalty with no seconds is refused by the server, in words.
  await D.locator('[data-testid=console-penalty-seconds]').fill('0');
  await D.locator('[data-testid=console-apply-penalty]').click();
  await waitFor(async () => (await text(D, '[data-testid=console-penalty-status]')) === 'A time penalty is from 1 to 3600 seconds.', 'bad penalty');

  // Back on the tournament's page, a player is not sent to the game again, but has a link.
  const r2 = t2.rounds[1].boards[0];
  const R2 = people[byNo[r2.white]].page;
  if (inTournament) await R2.locator('[data-testid=back-to-tournament]').click();
  else await R2.goto(`${env.server.base}/tournament/${id}`);
  await R2.waitForURL(new RegExp(`/tournament/${id}$`));
  await R2.locator('[data-testid=go-to-game]').waitFor();
  await R2.waitForTimeout(500);
  assert.match(R2.url(), new RegExp(`/tournament/${id}$`), 'stays on the tournament page');

  // The director corrects round 1 to a draw: standings change on a player's page, live.
  await D.locator('[data-testid=console-result-round]').selectOption('1');
  await D.locator('[data-testid=console-result-board]').selectOption('1');
  await D.locator('[data-testid=console-result-value]').selectOption('1/2-1/2');
  await D.locator('[data-testid=console-set-result]').click();
  await waitFor(async () => (await text(D, '[data-testid=console-result-status]')) === 'Done.', 'correction done');
  const viewer = people[resting].page;
  await viewer.goto(`${env.server.base}/tournament/${id}`);
  await viewer.locator('[data-testid=pairings]').waitFor();
  await viewer.locator('.tabs [data-round="1"]').click();
  await waitFor(async () => (await text(viewer, '[data-testid=result-1-1]')) === '½–½', 'the corrected result');
  await waitFor(async () => (await text(viewer, `[data-testid=standings] tr[data-player="${board.white}"] [data-tb=PTS]`)) === '½', 'white has half a point');
  assert.equal(await text(viewer, `[data-testid=standings] tr[data-player="${board.black}"] [data-tb=PTS]`), '½');
  await shot(viewer, 'tournament-corrected-en');
  // Exports: the TRF names the players.
  const trf = await (await fetch(`${env.server.base}/api/tournaments/${id}/trf`)).text();
  for (const n of [whiteName, blackName]) assert.match(trf, new RegExp(n));
  for (const p of Object.values(people)) await p.ctx.close();
});

test('a Swiss: errors from the server, the console is the director’s, players by name, byes, pause', async () => {
  const e = await person(env.browser);
  const E = e.page;
  await signUp(E, 'erik');
  await E.goto(env.server.base + '/tournament/new');
  // A time control the server cannot read, then an untimed rated event: the server's words.
  await E.locator('[data-testid=tc-text]').fill('nonsense');
  await E.locator('[data-testid=t-create]').click();
  await waitFor(async () => (await text(E, '[data-testid=t-error]')).startsWith('This time control cannot be read'), 'bad time control');
  await E.locator('[data-testid=tc-text]').fill('5+3');
  await E.locator('[data-testid=t-name]').fill('');
  await E.locator('[data-testid=t-create]').click();
  await waitFor(async () => (await text(E, '[data-testid=t-error]')) === 'A name has 1 to 80 characters.', 'bad name');
  await shot(E, 'tournament-create-error-en');
  // One click with the defaults (after a name): a 5-round Swiss.
  await E.locator('[data-testid=t-name]').fill('Friday Swiss');
  await E.locator('[data-testid=t-create]').click();
  await E.waitForURL(/\/tournament\/(?!new$)[A-Za-z0-9_-]+$/);
  const id = tid(E.url());
  await waitFor(async () => (await text(E, '[data-testid=tournament-name]')) === 'Friday Swiss', 'created');
  const t = await api(`/api/tournaments/${id}`);
  assert.equal(t.settings.system, 'swiss');
  assert.equal(t.settings.rounds, 5);
  assert.equal(t.settings.players_chat, false, 'FIDE’s default: no chat during play (Art. 11.3)');
  // Players entered by name (over the board), then a half-point bye for round 1.
  for (const [name, rating] of [['Anna Nováková', '1800'], ['Bořek Dvořák', '1700'], ['Cyril Malý', '1600']]) {
    await E.locator('[data-testid=console-player-name]').fill(name);
    await E.locator('[data-testid=console-player-rating]').fill(rating);
    await E.locator('[data-testid=console-add-player]').click();
    await waitFor(async () => (await text(E, '[data-testid=players]')).includes(name), `${name} listed`);
  }
  // A rating out of range is refused with the server's code.
  await E.locator('[data-testid=console-player-name]').fill('Nobody');
  await E.locator('[data-testid=console-player-rating]').fill('9000');
  await E.locator('[data-testid=console-add-player]').click();
  await waitFor(async () => (await text(E, '[data-testid=console-add-status]')) === 'A rating is from 0 to 4000.', 'bad rating');
  await E.locator('[data-testid=console-bye-player]').selectOption({ label: '3. Cyril Malý' });
  await E.locator('[data-testid=console-bye-round]').fill('1');
  await E.locator('[data-testid=console-grant-bye]').click();
  await waitFor(async () => (await text(E, '[data-testid=console-bye-status]')) === 'Done.', 'bye granted');
  // Someone else sees no console, and the server refuses them anyway.
  const f = await person(env.browser);
  await signUp(f.page, 'fred');
  await f.page.goto(`${env.server.base}/tournament/${id}`);
  await f.page.locator('[data-testid=tournament-name]').waitFor();
  assert.equal(await f.page.locator('[data-testid=console]').count(), 0);
  // Fred joins, then withdraws (a second click confirms): he is out before the start.
  await f.page.locator('[data-testid=join-tournament]').click();
  await f.page.locator('[data-testid=registered]').waitFor();
  await f.page.locator('[data-testid=withdraw-tournament]').click();
  assert.equal(await text(f.page, '[data-testid=withdraw-tournament]'), 'Really withdraw?');
  await f.page.locator('[data-testid=withdraw-tournament]').click();
  await f.page.locator('[data-testid=join-tournament]').waitFor();
  assert.equal(await f.page.locator('[data-testid=registered]').count(), 0);
  const refused = await f.page.evaluate(async (tid) => (await fetch(`/api/tournaments/${tid}/start`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).status, id);
  assert.equal(refused, 403);
  // Start: Anna and Bořek meet, Cyril has his bye; results typed by the director.
  await E.locator('[data-testid=console-start]').click();
  await E.locator('[data-testid=pairings] tbody tr').first().waitFor();
  assert.match(await text(E, '[data-testid=pairings] tr.bye'), /Cyril Malý.*½.*Half-point bye/);
  await E.locator('[data-testid=console-result-board]').selectOption('1');
  await E.locator('[data-testid=console-result-value]').selectOption('1-0');
  await E.locator('[data-testid=console-set-result]').click();
  await waitFor(async () => (await text(E, '[data-testid=result-1-1]')) === '1–0', 'result typed');
  // Pause and resume.
  await E.locator('[data-testid=console-pause]').click();
  await E.locator('[data-testid=tournament-paused]').waitFor();
  await E.locator('[data-testid=console-pause]').click();
  await waitFor(async () => (await E.locator('[data-testid=tournament-paused]').count()) === 0, 'resumed');
  await shot(E, 'tournament-swiss-director-en');
  await e.ctx.close();
  await f.ctx.close();
});

test('an automatic start the server refuses (nobody registered) is told on the page', async () => {
  const g = await person(env.browser);
  const G = g.page;
  await signUp(G, 'gus');
  const made = await G.evaluate(async () => {
    const r = await fetch('/api/tournaments', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Nobody comes', time_control: '3+2', starts_at: Date.now() + 3000 }),
    });
    return r.json();
  });
  await G.goto(`${env.server.base}/tournament/${made.id}`);
  await G.locator('[data-testid=server-notice]').waitFor({ timeout: 15000 });
  assert.match(await text(G, '[data-testid=server-notice]'), /^An automatic step was refused:/);
  assert.equal(await text(G, '[data-testid=tournament-status]'), 'Upcoming');
  await g.ctx.close();
});
