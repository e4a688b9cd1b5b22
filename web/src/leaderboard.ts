// `/leaderboard?speed=blitz`: the best settled ratings of one category, one tab per category.

import { h } from './dom';
import { pt, digits } from './i18n';
import { users } from './players-api';
import { SPEEDS, type Speed } from './ratings';
import { nameLink } from './player-tag';
import { errorMessage } from './errors';

export function renderLeaderboard(root: HTMLElement, params: URLSearchParams): () => void {
  const p = pt();
  let speed: Speed = (SPEEDS as readonly string[]).includes(params.get('speed') ?? '') ? (params.get('speed') as Speed) : 'blitz';
  let stopped = false;
  const tabs = h('div', { class: 'tabs', role: 'tablist', 'aria-label': p.speed });
  const body = h('tbody', {});
  const table = h(
    'table',
    { class: 'list leaderboard', 'data-testid': 'leaderboard', role: 'tabpanel' },
    h('thead', {}, h('tr', {}, [p.rank, p.player, p.rating, p.games].map((x) => h('th', { scope: 'col' }, x)))),
    body,
  );
  const empty = h('p', { class: 'muted', hidden: true, 'data-testid': 'leaderboard-empty' }, p.emptyLeaderboard);
  const errorBox = h('p', { class: 'error', role: 'alert', hidden: true });

  const drawTabs = () =>
    tabs.replaceChildren(
      ...SPEEDS.map((s) =>
        h(
          'button',
          {
            type: 'button',
            role: 'tab',
            class: 'tab',
            'aria-selected': String(s === speed),
            'data-speed': s,
            onclick: () => {
              speed = s;
              history.replaceState(null, '', `/leaderboard?speed=${s}`);
              void load();
            },
          },
          p.speeds[s],
        ),
      ),
    );

  async function load(): Promise<void> {
    drawTabs();
    const asked = speed;
    try {
      const list = await users.leaderboard(asked);
      if (stopped || asked !== speed) return;
      errorBox.hidden = true;
      body.replaceChildren(
        ...list.map((e, i) =>
          h(
            'tr',
            { 'data-user': e.username },
            h('td', { class: 'num rank' }, digits(String(i + 1))),
            h('td', {}, nameLink(e.username)),
            h('td', { class: 'num' }, digits(String(e.rating))),
            h('td', { class: 'num' }, digits(String(e.games))),
          ),
        ),
      );
      table.hidden = list.length === 0;
      empty.hidden = list.length > 0;
    } catch (err) {
      if (stopped) return;
      errorBox.textContent = errorMessage(err);
      errorBox.hidden = false;
    }
  }
  void load();

  root.replaceChildren(
    h('section', { class: 'card leaderboard-page' }, h('h1', { class: 'page-title' }, p.leaderboard), h('p', { class: 'help' }, p.leaderboardHelp), tabs, errorBox, h('div', { class: 'table-scroll' }, table), empty),
  );
  return () => {
    stopped = true;
  };
}
