// `/tournaments`: upcoming, running and finished tournaments, and the way to create one.

import { h } from './dom';
import { tt, pt, fmt, digits, dateText } from './i18n';
import { tournamentsApi, type TournamentSummary } from './tournaments-api';
import { splitTournaments } from './tournament-logic';
import { navigate, spaLink, tournamentPath, NEW_TOURNAMENT_PATH } from './router';
import { currentUser } from './session';
import { tournamentError as errorMessage } from './errors';
import { nameLink } from './player-tag';

export function renderTournamentList(root: HTMLElement): () => void {
  const w = tt();
  const p = pt();
  let stopped = false;
  const errorBox = h('p', { class: 'error', role: 'alert', hidden: true });
  const sections = (['running', 'upcoming', 'finished'] as const).map((k) => {
    const body = h('tbody', {});
    const table = h(
      'table',
      { class: 'list tournaments', 'data-testid': `tournaments-${k}` },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ([[w.name], [w.system, 'opt'], [w.timeControl], [w.players], [k === 'upcoming' ? w.starts : w.rounds, 'opt'], [w.director, 'opt']] as const).map(([x, c]) =>
            h('th', { scope: 'col', class: c ?? null }, x),
          ),
        ),
      ),
      body,
    );
    const empty = h('p', { class: 'muted', 'data-testid': `tournaments-${k}-empty` }, k === 'upcoming' ? w.noUpcoming : k === 'running' ? w.noRunning : w.noFinished);
    table.hidden = true;
    return { k, body, table, empty, el: h('section', { class: 'card' }, h('h2', {}, w[k]), h('div', { class: 'table-scroll' }, table), empty) };
  });

  const row = (x: TournamentSummary, k: string) => {
    const href = tournamentPath(x.id);
    const tr = h(
      'tr',
      { 'data-tournament': x.id },
      h('td', {}, spaLink(h('a', { href, class: 'tournament-name', 'data-testid': `tournament-${x.id}` }, x.name)), x.rated ? null : h('span', { class: 'badge' }, p.casual)),
      h('td', { class: 'opt' }, w.systemsShort[x.system] ?? x.system),
      h('td', { class: 'tc' }, h('bdi', { dir: 'ltr' }, digits(x.time_control ?? ''))),
      h('td', { class: 'num' }, digits(String(x.players ?? 0))),
      h(
        'td',
        { class: 'opt nowrap' },
        k === 'upcoming'
          ? x.starts_at
            ? dateText(x.starts_at, true, true)
            : w.startsWhenDirector
          : x.rounds
            ? k === 'running'
              ? fmt(w.roundOf, { n: digits(String(x.current_round)), total: digits(String(x.rounds)) })
              : digits(String(x.rounds))
            : '',
      ),
      h('td', { class: 'opt' }, x.director ? nameLink(x.director) : ''),
    );
    tr.addEventListener('click', (e) => {
      if ((e.target as HTMLElement).closest('a')) return;
      navigate(href);
    });
    return tr;
  };

  const load = async () => {
    try {
      const lists = splitTournaments(await tournamentsApi.list());
      if (stopped) return;
      errorBox.hidden = true;
      for (const s of sections) {
        const list = lists[s.k];
        s.body.replaceChildren(...list.map((x) => row(x, s.k)));
        s.table.hidden = list.length === 0;
        s.empty.hidden = list.length > 0;
      }
    } catch (err) {
      if (stopped) return;
      errorBox.textContent = errorMessage(err);
      errorBox.hidden = false;
    }
  };
  void load();
  const timer = window.setInterval(() => {
    if (document.visibilityState === 'visible') void load();
  }, 10000);

  const me = currentUser();
  root.replaceChildren(
    h(
      'div',
      { class: 'tournament-list' },
      h(
        'div',
        { class: 'row wrap list-head' },
        h('h1', { class: 'page-title' }, w.tournaments),
        me
          ? spaLink(h('a', { href: NEW_TOURNAMENT_PATH, class: 'button primary', 'data-testid': 'new-tournament' }, `+ ${w.newTournament}`))
          : h('p', { class: 'login-prompt', 'data-testid': 'tournament-login-prompt' }, spaLink(h('a', { href: '/login' }, p.logIn)), ' · ', w.logInToCreate),
      ),
      errorBox,
      sections.map((s) => s.el),
    ),
  );
  return () => {
    stopped = true;
    window.clearInterval(timer);
  };
}
