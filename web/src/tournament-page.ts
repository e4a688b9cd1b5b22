// `/tournament/{id}`: what the tournament is, join or withdraw, the players, the pairings of
// every round with results and links to the games (and how the round was paired), the
// standings with the tie-breaks, the crosstable and the exports; the director's console for the
// director. Kept live by the tournament's socket (tournament-watch.ts), which also opens the
// player's own game when a round starts.

import { h } from './dom';
import { t, tt, pt, fmt, digits, dateText, timeText, colorName } from './i18n';
import { ApiError } from './api';
import { tournamentsApi, type Tournament, type TPlayer, type TRound } from './tournaments-api';
import { resultText, pointsText, tiebreakText, crosstable, boardOf, myNo, explanationLines, playersChatOpen } from './tournament-logic';
import { watchTournament } from './tournament-watch';
import { currentUser } from './session';
import { tournamentError as errorMessage } from './errors';
import { nameLink } from './player-tag';
import { spaLink } from './router';
import { sameName } from './ratings';
import { directorConsole } from './tournament-console';

export function renderTournament(root: HTMLElement, id: string): () => void {
  const w = tt();
  let stopped = false;
  /** The round shown in the pairings (null: the latest). */
  let shownRound: number | null = null;
  let state: Tournament | null = null;

  const headEl = h('section', { class: 'card tournament-head', 'data-testid': 'tournament-head' });
  const noticeEl = h('div', { class: 'tournament-notice', hidden: true, role: 'status', 'data-testid': 'your-game' });
  const consoleSlot = h('div', {});
  const pairingsEl = h('section', { class: 'card', 'data-testid': 'pairings-card' });
  const standingsEl = h('section', { class: 'card', 'data-testid': 'standings-card' });
  const crossEl = h('section', { class: 'card', 'data-testid': 'crosstable-card' });
  const playersEl = h('section', { class: 'card', 'data-testid': 'players-card' });
  const connEl = h('p', { class: 'conn', hidden: true }, w.reconnecting);
  const serverNotice = h('p', { class: 'error', role: 'alert', hidden: true, 'data-testid': 'server-notice' });
  const errorBox = h('p', { class: 'error', role: 'alert', hidden: true, 'data-testid': 'tournament-error' });
  const showError = (err: unknown) => {
    errorBox.textContent = errorMessage(err);
    errorBox.hidden = false;
  };
  let console_: ReturnType<typeof directorConsole> | null = null;

  root.replaceChildren(h('p', { class: 'muted' }, '…'));
  const watch = watchTournament(id);
  const unsubscribe = watch.subscribe(
    (s) => {
      if (!stopped) show(s);
    },
    (connected) => (connEl.hidden = connected),
    (message) => {
      serverNotice.replaceChildren(h('strong', {}, `${w.notice} `), h('span', { dir: 'auto' }, message));
      serverNotice.hidden = false;
    },
  );
  tournamentsApi
    .get(id)
    .then((s) => {
      if (!stopped && !state) show(s);
    })
    .catch((err) => {
      if (stopped) return;
      const missing = err instanceof ApiError && err.status === 404;
      root.replaceChildren(
        h('div', { class: 'card narrow', 'data-testid': 'no-such-tournament' }, h('h2', {}, missing ? w.notFound : errorMessage(err)), spaLink(h('a', { href: '/tournaments' }, w.tournaments))),
      );
    });

  function show(s: Tournament): void {
    const first = state === null;
    state = s;
    document.title = `${s.name} · ${t().title}`;
    drawHead(s);
    drawPairings(s);
    drawStandings(s);
    drawCrosstable(s);
    drawPlayers(s);
    const me = currentUser();
    if (me && sameName(me.username, s.director)) {
      if (!console_) {
        console_ = directorConsole(id, () => void watch.refresh());
        consoleSlot.replaceChildren(console_.el);
      }
      console_.update(s);
    } else if (console_) {
      console_ = null;
      consoleSlot.replaceChildren();
    }
    if (first)
      root.replaceChildren(
        h(
          'div',
          { class: 'tournament' },
          headEl,
          noticeEl,
          connEl,
          serverNotice,
          errorBox,
          consoleSlot,
          h('div', { class: 'tournament-grid' }, h('div', { class: 'stack' }, pairingsEl, crossEl), h('div', { class: 'stack' }, standingsEl, playersEl)),
        ),
      );
  }

  const playerById = (s: Tournament) => new Map(s.players.map((p) => [p.no, p] as const));

  function playerName(pl: TPlayer | undefined, withNo = false): HTMLElement {
    if (!pl) return h('span', { class: 'muted' }, '?');
    const label = pl.username ? nameLink(pl.username, { 'data-player': String(pl.no) }) : h('span', { class: 'username', dir: 'ltr', 'data-player': String(pl.no) }, pl.name);
    return h(
      'span',
      { class: `tplayer${pl.withdrawn ? ' withdrawn' : ''}` },
      withNo ? h('span', { class: 'muted start-no' }, digits(String(pl.no))) : null,
      pl.title ? h('span', { class: 'title' }, pl.title) : null,
      label,
      pl.rating ? h('span', { class: 'rating', dir: 'ltr' }, digits(String(pl.rating))) : null,
    );
  }

  function drawHead(s: Tournament): void {
    const me = currentUser();
    const mine = myNo(s, me?.username);
    const myself = mine !== null ? s.players.find((p) => p.no === mine) : undefined;
    const registrationOpen = s.registration_open;
    let action: HTMLElement | null = null;
    if (me && (!myself || myself.withdrawn) && registrationOpen) {
      action = h('button', { type: 'button', class: 'primary', 'data-testid': 'join-tournament', onclick: () => void act(() => tournamentsApi.register(id)) }, w.join);
    } else if (me && myself && !myself.withdrawn && s.status !== 'finished') {
      // Withdrawing asks once more (the second click withdraws).
      const btn = h('button', { type: 'button', class: 'danger', 'data-testid': 'withdraw-tournament' }, w.withdraw);
      btn.addEventListener('click', () => {
        if (btn.dataset.confirm) void act(() => tournamentsApi.withdraw(id));
        else {
          btn.dataset.confirm = '1';
          btn.textContent = w.confirmWithdraw;
        }
      });
      action = btn;
    }
    const facts: [string, Node | string][] = [
      [w.system, w.systems[String(s.settings.system)] ?? String(s.settings.system ?? '')],
      [w.timeControl, h('bdi', { dir: 'ltr' }, digits(String(s.settings.time_control ?? '')))],
      [w.rounds, s.rounds_planned ? (s.current_round ? fmt(w.roundOf, { n: digits(String(s.current_round)), total: digits(String(s.rounds_planned)) }) : digits(String(s.rounds_planned))) : '—'],
      [w.players, digits(String(s.players.length))],
      [w.director, nameLink(s.director)],
      [w.starts, s.started_at ? dateText(s.started_at, true) : s.settings.starts_at ? dateText(Number(s.settings.starts_at), true) : w.startsWhenDirector],
      [w.tiebreaks, h('span', { dir: 'ltr', class: 'tb-order' }, s.standings.tiebreaks.filter((x) => x !== 'PTS').map((tb, i) => [i ? ' ' : '', h('abbr', { title: w.tb[tb] ?? tb }, tb)]))],
    ];
    // Art. 11.3: whether the players' chat room is open during play (online games only).
    if (s.settings.online !== false) facts.push([w.playersChatFact, h('span', { 'data-testid': 'players-chat' }, playersChatOpen(s.settings) ? w.playersChatOpen : w.playersChatClosed)]);
    headEl.replaceChildren(
      ...([
      h(
        'div',
        { class: 'row wrap list-head' },
        h('h1', { class: 'page-title' }, h('span', { 'data-testid': 'tournament-name' }, s.name), h('span', { class: `badge status-${s.status}`, 'data-testid': 'tournament-status' }, w.status[s.status] ?? s.status), s.paused ? h('span', { class: 'badge status-paused', 'data-testid': 'tournament-paused' }, w.status.paused) : null, s.settings.rated === false ? h('span', { class: 'badge' }, pt().casual) : null),
        action,
      ),
      myself && !myself.withdrawn ? h('p', { class: 'ok', 'data-testid': 'registered' }, w.registered) : myself?.withdrawn ? h('p', { class: 'muted' }, w.withdrawnYou) : null,
      !me && registrationOpen ? h('p', { class: 'login-prompt' }, spaLink(h('a', { href: '/login' }, pt().logIn)), ' · ', w.logInToCreate) : null,
      h('dl', { class: 'facts' }, facts.map(([k, v]) => h('div', {}, h('dt', {}, k), h('dd', {}, v)))),
      s.paused && s.status !== 'finished' ? h('p', { class: 'muted', 'data-testid': 'paused-note' }, w.pausedNote) : null,
      s.next_round_at && !s.paused ? h('p', { class: 'muted', 'data-testid': 'next-round-at' }, fmt(w.nextRoundAt, { time: timeText(s.next_round_at) })) : null,
      s.round_deadline && s.round_deadline > Date.now() ? h('p', { class: 'muted', 'data-testid': 'round-deadline' }, fmt(w.deadline, { time: timeText(s.round_deadline) })) : null,
      h(
        'p',
        { class: 'exports row wrap' },
        h('strong', {}, `${w.exports}:`),
        h('a', { class: 'button small', href: tournamentsApi.trfUrl(id), download: `${id}.trf`, 'data-testid': 'export-trf' }, `↓ ${w.exportTrf}`),
        h('a', { class: 'button small', href: tournamentsApi.pgnUrl(id), download: `${id}.pgn`, 'data-testid': 'export-pgn' }, `↓ ${w.exportPgn}`),
        h('a', { class: 'button small', href: tournamentsApi.crosstableTxtUrl(id), download: `${id}-crosstable.txt`, 'data-testid': 'export-crosstable' }, `↓ ${w.exportCrosstable}`),
        h('a', { class: 'button small', href: tournamentsApi.crosstableCsvUrl(id), download: `${id}-crosstable.csv`, 'data-testid': 'export-csv' }, `↓ CSV`),
      ),
      ] as (HTMLElement | null)[]).filter((x): x is HTMLElement => x !== null),
    );
    // The player's game of the round in play, always within reach.
    const round = s.rounds[s.rounds.length - 1];
    const p = boardOf(round, mine);
    if (p?.game && !p.result) {
      noticeEl.replaceChildren(
        h('span', {}, fmt(w.yourGame, { n: digits(String(round.round)) })),
        ' ',
        spaLink(h('a', { href: `/game/${encodeURIComponent(p.game)}`, class: 'button small primary', 'data-testid': 'go-to-game' }, w.goToGame)),
      );
      noticeEl.hidden = false;
    } else noticeEl.hidden = true;
  }

  async function act(f: () => Promise<unknown>): Promise<void> {
    errorBox.hidden = true;
    try {
      await f();
      await watch.refresh();
    } catch (err) {
      showError(err);
    }
  }

  function drawPairings(s: Tournament): void {
    const rounds = s.rounds;
    if (!rounds.length) {
      pairingsEl.replaceChildren(h('h2', {}, w.pairings), h('p', { class: 'muted', 'data-testid': 'no-rounds' }, w.noRounds));
      return;
    }
    const n = shownRound !== null && rounds.some((r) => r.round === shownRound) ? shownRound : rounds[rounds.length - 1].round;
    const round = rounds.find((r) => r.round === n)!;
    const tabs = h(
      'div',
      { class: 'tabs', role: 'tablist', 'aria-label': w.pairings },
      rounds.map((r) =>
        h(
          'button',
          {
            type: 'button',
            role: 'tab',
            class: 'tab',
            'aria-selected': String(r.round === n),
            'data-round': r.round,
            onclick: () => {
              shownRound = r.round;
              drawPairings(s);
            },
          },
          digits(String(r.round)),
        ),
      ),
    );
    pairingsEl.replaceChildren(...[h('h2', {}, w.pairings, ' · ', fmt(w.roundN, { n: digits(String(n)) })), tabs, roundTable(s, round), explanation(round)].filter((x): x is HTMLElement => x !== null));
  }

  function roundTable(s: Tournament, round: TRound): HTMLElement {
    const byNo = playerById(s);
    const mine = myNo(s, currentUser()?.username);
    const body = h(
      'tbody',
      {},
      round.boards.map((p) =>
        h(
          'tr',
          { 'data-board': p.board, class: p.white === mine || p.black === mine ? 'mine' : null },
          h('td', { class: 'num muted' }, digits(String(p.board))),
          h('td', { class: 'white-cell' }, playerName(byNo.get(p.white))),
          // The result opens the game (a board played online has one).
          h(
            'td',
            { class: 'num result-cell', 'data-testid': `result-${round.round}-${p.board}` },
            p.game
              ? spaLink(h('a', { href: `/game/${encodeURIComponent(p.game)}`, class: p.result ? 'game-link' : 'game-link live', title: w.game, 'data-testid': `game-link-${round.round}-${p.board}` }, p.result ? h('bdi', { dir: 'ltr' }, digits(resultText(p.result))) : `▶ ${w.pending}`))
              : p.result
                ? h('bdi', { dir: 'ltr' }, digits(resultText(p.result)))
                : h('span', { class: 'muted' }, w.pending),
          ),
          h('td', { class: 'black-cell' }, playerName(byNo.get(p.black))),
        ),
      ),
      round.byes.map((b) =>
        h(
          'tr',
          { class: `bye${b.player === mine ? ' mine' : ''}`, 'data-bye': b.player },
          h('td', {}),
          h('td', {}, playerName(byNo.get(b.player))),
          h('td', { class: 'num result-cell' }, b.kind === 'free' ? '' : h('bdi', { dir: 'ltr' }, digits(pointsText(byeScore(s, b.kind))))),
          h('td', { class: 'muted bye-kind' }, w.byes[b.kind] ?? b.kind),
        ),
      ),
    );
    return h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        { class: 'list pairings', 'data-testid': 'pairings', 'data-round': round.round },
        h('thead', {}, h('tr', {}, [w.board, colorName('white'), w.result, colorName('black')].map((x) => h('th', { scope: 'col' }, x)))),
        body,
      ),
    );
  }

  function byeScore(s: Tournament, kind: string): number {
    const sc = s.settings.scoring ?? { win: 1, draw: 0.5, loss: 0, bye: 1 };
    if (kind === 'half') return sc.draw;
    if (kind === 'zero') return 0;
    if (kind === 'full') return sc.win;
    return sc.bye;
  }

  function explanation(round: TRound): HTMLElement | null {
    const lines = explanationLines(round.explanation);
    if (!lines.length) return null;
    return h('details', { class: 'explanation', 'data-testid': 'explanation' }, h('summary', {}, w.explanation), h('pre', { dir: 'ltr' }, lines.join('\n')));
  }

  function drawStandings(s: Tournament): void {
    const byNo = playerById(s);
    const codes = s.standings.tiebreaks.includes('PTS') ? s.standings.tiebreaks : ['PTS', ...s.standings.tiebreaks];
    standingsEl.replaceChildren(
      h('h2', {}, w.standings),
      h(
        'div',
        { class: 'table-scroll' },
        h(
          'table',
          { class: 'list standings', 'data-testid': 'standings' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', { scope: 'col' }, w.rank),
              h('th', { scope: 'col' }, w.player),
              codes.map((c) => h('th', { scope: 'col', class: 'num' }, h('abbr', { title: w.tb[c] ?? c, dir: 'ltr' }, c === 'PTS' ? w.points : c))),
            ),
          ),
          h(
            'tbody',
            {},
            s.standings.rows.map((r) =>
              h(
                'tr',
                { 'data-player': r.no },
                h('td', { class: 'num rank' }, digits(String(r.rank))),
                h('td', {}, playerName(byNo.get(r.no))),
                codes.map((c) => h('td', { class: `num tb${c === 'PTS' ? ' pts' : ''}`, dir: 'ltr', 'data-tb': c }, digits(tiebreakText(c, c === 'PTS' ? (r.tiebreaks.PTS ?? r.points) : r.tiebreaks[c])))),
              ),
            ),
          ),
        ),
      ),
    );
  }

  function drawCrosstable(s: Tournament): void {
    const rounds = s.rounds;
    if (!rounds.length) {
      crossEl.hidden = true;
      return;
    }
    crossEl.hidden = false;
    const players = [...s.players].sort((a, b) => a.no - b.no);
    const cells = crosstable(
      players.map((p) => p.no),
      rounds,
    );
    crossEl.replaceChildren(
      h('h2', {}, w.crosstable),
      h(
        'div',
        { class: 'table-scroll' },
        h(
          'table',
          { class: 'list crosstable', 'data-testid': 'crosstable' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', { scope: 'col' }, w.startNo),
              h('th', { scope: 'col' }, w.player),
              rounds.map((r) => h('th', { scope: 'col', class: 'num' }, digits(String(r.round)))),
              h('th', { scope: 'col', class: 'num' }, w.points),
            ),
          ),
          h(
            'tbody',
            {},
            players.map((p) =>
              h(
                'tr',
                { 'data-player': p.no },
                h('td', { class: 'num muted' }, digits(String(p.no))),
                h('td', {}, playerName(p)),
                (cells.get(p.no) ?? []).map((c) =>
                  h(
                    'td',
                    { class: `num cross ${c.colour ?? 'none'}`, dir: 'ltr', title: c.colour ? colorName(c.colour === 'w' ? 'white' : 'black') : '' },
                    c.opponent !== null ? [h('span', { class: 'opp' }, digits(String(c.opponent))), h('span', { class: `piece-dot ${c.colour === 'w' ? 'white' : 'black'}`, 'aria-hidden': 'true' }), h('strong', {}, digits(c.score))] : digits(c.score || '·'),
                  ),
                ),
                h('td', { class: 'num pts', dir: 'ltr' }, digits(pointsText(p.points))),
              ),
            ),
          ),
        ),
      ),
    );
  }

  function drawPlayers(s: Tournament): void {
    const list = [...s.players].sort((a, b) => a.no - b.no);
    playersEl.replaceChildren(
      h('h2', {}, w.players, ' ', h('span', { class: 'muted' }, `(${digits(String(list.length))})`)),
      list.length
        ? h(
            'div',
            { class: 'table-scroll' },
            h(
              'table',
              { class: 'list tplayers', 'data-testid': 'players' },
              h('thead', {}, h('tr', {}, [w.startNo, w.player, w.federation, w.points].map((x) => h('th', { scope: 'col' }, x)))),
              h(
                'tbody',
                {},
                list.map((p) =>
                  h(
                    'tr',
                    { 'data-player': p.no, class: p.withdrawn ? 'withdrawn' : null },
                    h('td', { class: 'num muted' }, digits(String(p.no))),
                    h('td', {}, playerName(p), p.withdrawn ? h('span', { class: 'badge' }, w.withdrawnMark) : null),
                    h('td', { dir: 'ltr' }, p.federation ?? ''),
                    h('td', { class: 'num', dir: 'ltr' }, digits(pointsText(p.points))),
                  ),
                ),
              ),
            ),
          )
        : h('p', { class: 'muted', 'data-testid': 'no-players' }, w.noPlayers),
    );
  }

  return () => {
    stopped = true;
    unsubscribe();
  };
}
