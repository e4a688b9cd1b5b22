// `/@/{name}`: a player's ratings per category, score, games being played, and the list of
// their games (newest first, 20 a page, filtered by speed and result) with a PGN download.

import { h, id } from './dom';
import { t, pt, fmt, digits, dateText } from './i18n';
import { ApiError } from './api';
import { users, type GameListItem, type Profile } from './players-api';
import { SPEEDS, ratingText, diffText, diffTrend, fromSideOf, pageCount } from './ratings';
import { navigate, profilePath, spaLink } from './router';
import { errorMessage } from './errors';
import { playerTag, titleBadge } from './player-tag';
import { currentUser } from './session';
import { sameName } from './ratings';
import { challengeBox } from './challenge-ui';

export function renderProfile(root: HTMLElement, name: string, params: URLSearchParams): () => void {
  const p = pt();
  let stopped = false;
  let stopChallenge: (() => void) | null = null;
  root.replaceChildren(h('p', { class: 'muted' }, '…'));
  users
    .profile(name)
    .then((prof) => {
      if (!stopped) show(prof);
    })
    .catch((err) => {
      if (stopped) return;
      const missing = err instanceof ApiError && err.status === 404;
      root.replaceChildren(
        h('div', { class: 'card narrow', 'data-testid': 'no-such-player' }, h('h2', {}, missing ? fmt(p.noSuchPlayer, { name }) : errorMessage(err)), spaLink(h('a', { href: '/leaderboard' }, p.leaderboard))),
      );
    });

  function show(prof: Profile): void {
    const d = t();
    document.title = `${prof.username} · ${d.title}`;
    const ratings = h(
      'ul',
      { class: 'ratings', 'data-testid': 'ratings' },
      SPEEDS.map((s) => {
        const r = prof.ratings[s];
        return h(
          'li',
          { 'data-speed': s },
          h('span', { class: 'speed-name' }, p.speeds[s] ?? s),
          h('strong', { class: 'rating', dir: 'ltr', 'data-testid': `rating-${s}` }, r ? digits(ratingText(r.rating, r.provisional)) : '—'),
          // Two lines: a middle dot beside Persian digits would read as a zero (۰).
          r ? h('span', { class: 'muted' }, h('bdi', { dir: 'ltr' }, `${p.rdShort} ${digits(String(r.rd))}`)) : null,
          r ? h('span', { class: 'muted' }, fmt(p.gamesN, { n: digits(String(r.games)) })) : null,
        );
      }),
    );
    const c = prof.count;
    const score = h(
      'dl',
      { class: 'score-line', 'data-testid': 'score' },
      ([
        [p.games, c.games, 'games'],
        [p.wins, c.wins, 'wins'],
        [p.draws, c.draws, 'draws'],
        [p.losses, c.losses, 'losses'],
      ] as const).map(([label, n, key]) => h('div', { 'data-count': key }, h('dt', {}, label), h('dd', {}, digits(String(n))))),
    );
    // Another player's open account can be challenged (by someone logged in).
    const me = currentUser();
    const challenge = me && !sameName(me.username, prof.username) && !prof.closed ? challengeBox(prof.username) : null;
    stopChallenge = challenge?.stop ?? null;
    const playing = prof.playing.length
      ? h(
          'p',
          { class: 'playing', 'data-testid': 'playing' },
          h('strong', {}, `${p.playingNow}: `),
          prof.playing.map((g, i) => [i ? ', ' : '', spaLink(h('a', { href: `/game/${encodeURIComponent(g)}`, dir: 'ltr' }, g))]),
        )
      : null;

    root.replaceChildren(
      h(
        'div',
        { class: 'profile' },
        h(
          'div',
          { class: 'card' },
          h(
            'h1',
            { class: 'page-title' },
            titleBadge(prof.title),
            h('span', { dir: 'ltr', 'data-testid': 'profile-name' }, prof.username),
            prof.closed ? h('span', { class: 'badge', 'data-testid': 'closed' }, p.closed) : null,
          ),
          h('p', { class: 'muted' }, prof.closed ? `${p.closedAccount} ` : '', fmt(p.memberSince, { date: dateText(prof.created_at) })),
          challenge?.el ?? null,
          h('h2', {}, p.ratings),
          ratings,
          score,
          playing,
        ),
        gameList(prof.username, params),
      ),
    );
  }

  return () => {
    stopped = true;
    stopChallenge?.();
  };
}

/** The list of a player's games with its filters and pages; the query lives in the address. */
function gameList(username: string, params: URLSearchParams): HTMLElement {
  const d = t();
  const p = pt();
  let page = Math.max(1, Number(params.get('page')) || 1);
  const speedSel = h(
    'select',
    { id: id('speed'), 'data-testid': 'filter-speed' },
    h('option', { value: '' }, p.allSpeeds),
    SPEEDS.map((s) => h('option', { value: s, selected: params.get('speed') === s }, p.speeds[s])),
  );
  const resultSel = h(
    'select',
    { id: id('result'), 'data-testid': 'filter-result' },
    h('option', { value: '' }, p.allResults),
    (['win', 'draw', 'loss'] as const).map((r) =>
      h('option', { value: r, selected: params.get('result') === r }, r === 'win' ? p.resultWin : r === 'draw' ? p.resultDraw : p.resultLoss),
    ),
  );
  const body = h('tbody', {});
  const table = h(
    'table',
    { class: 'list games-table', 'data-testid': 'games' },
    h('thead', {}, h('tr', {}, ([[p.date], [p.opponent], [p.result], [d.timeControl], ['', 'opt']] as const).map(([x, c]) => h('th', { scope: 'col', class: c ?? null }, x)))),
    body,
  );
  const empty = h('p', { class: 'muted', hidden: true, 'data-testid': 'no-games' }, p.noGames);
  const errorBox = h('p', { class: 'error', role: 'alert', hidden: true });
  const prev = h('button', { type: 'button', class: 'small', 'data-testid': 'prev-page', onclick: () => load(page - 1) }, p.previous);
  const next = h('button', { type: 'button', class: 'small', 'data-testid': 'next-page', onclick: () => load(page + 1) }, p.next);
  const pageLabel = h('span', { class: 'muted', 'data-testid': 'page' });
  // Only the answer to the latest request is shown (filters can change faster than answers come).
  let asked = 0;

  async function load(to: number): Promise<void> {
    page = Math.max(1, to);
    const q = { page, speed: speedSel.value || undefined, result: resultSel.value || undefined };
    // The address keeps the page and filters (a reload or a shared link shows the same list).
    const search = new URLSearchParams();
    if (page > 1) search.set('page', String(page));
    if (q.speed) search.set('speed', q.speed);
    if (q.result) search.set('result', q.result);
    const s = search.toString();
    history.replaceState(null, '', profilePath(username) + (s ? `?${s}` : ''));
    const mine = ++asked;
    try {
      const res = await users.games(username, q);
      if (mine !== asked) return;
      errorBox.hidden = true;
      const pages = pageCount(res.total, res.per_page);
      body.replaceChildren(...res.games.map((g) => row(g, username)));
      empty.hidden = res.games.length > 0;
      table.hidden = res.games.length === 0;
      pageLabel.textContent = fmt(p.pageOf, { page: digits(String(res.page)), pages: digits(String(pages)) });
      prev.disabled = res.page <= 1;
      next.disabled = res.page >= pages;
    } catch (err) {
      errorBox.textContent = errorMessage(err);
      errorBox.hidden = false;
    }
  }
  speedSel.addEventListener('change', () => void load(1));
  resultSel.addEventListener('change', () => void load(1));
  void load(page);

  return h(
    'section',
    { class: 'card' },
    h(
      'div',
      { class: 'row wrap list-head' },
      h('h2', {}, p.games),
      h('label', { class: 'field', for: speedSel.id }, h('span', { class: 'sr-only' }, p.speed), speedSel),
      h('label', { class: 'field', for: resultSel.id }, h('span', { class: 'sr-only' }, p.result), resultSel),
      h('a', { class: 'button small', href: users.pgnUrl(username), download: `${username}.pgn`, 'data-testid': 'download-all' }, `↓ ${p.downloadAll}`),
    ),
    errorBox,
    h('div', { class: 'table-scroll' }, table),
    empty,
    h('div', { class: 'row pager' }, prev, pageLabel, next),
  );
}

function row(g: GameListItem, username: string): HTMLElement {
  const d = t();
  const p = pt();
  const side = fromSideOf(g, username);
  const outcome = side.outcome === 'win' ? p.resultWin : side.outcome === 'draw' ? p.resultDraw : side.outcome === 'loss' ? p.resultLoss : g.status;
  const href = `/game/${encodeURIComponent(g.id)}`;
  const diff = side.me?.rating_diff;
  const tr = h(
    'tr',
    { 'data-game': g.id, class: `outcome-${side.outcome ?? 'none'}` },
    h('td', { class: 'date' }, spaLink(h('a', { href, 'data-testid': `game-${g.id}`, title: dateText(g.created_at, true) }, dateText(g.created_at, false, true)))),
    h('td', {}, h('span', { class: 'opponent' }, h('span', { class: `piece-dot ${side.seat === 'white' ? 'black' : 'white'}`, 'aria-hidden': 'true' }), playerTag(side.opponent, { link: true }))),
    h(
      'td',
      {},
      // The spaces stay outside the left-to-right parts, or a Persian line would lose them.
      h('span', { class: 'outcome' }, outcome),
      g.result ? [' ', h('span', { class: 'muted nowrap', dir: 'ltr' }, g.result.replace(/1\/2/g, '½'))] : null,
      diff !== null && diff !== undefined ? [' ', h('span', { class: `diff ${diffTrend(diff)}`, dir: 'ltr' }, digits(diffText(diff)))] : null,
    ),
    h('td', { class: 'tc' }, h('bdi', { dir: 'ltr' }, digits(g.time_control ?? '∞')), g.variant === 'chess960' ? h('span', { class: 'muted' }, ` · ${d.chess960}`) : null, g.opening ? h('div', { class: 'muted opening', 'data-testid': `opening-${g.id}` }, `${g.opening.eco} ${g.opening.name}`) : null),
    h('td', { class: 'muted opt' }, g.rated ? p.rated : p.casual),
  );
  // The whole row opens the game; the link in its first cell is the keyboard's way.
  tr.addEventListener('click', (e) => {
    if ((e.target as HTMLElement).closest('a')) return;
    navigate(href);
  });
  return tr;
}
