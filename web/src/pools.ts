// Quick pairing: the nine pools as buttons with how many wait in each. A click joins (the
// button then says "Searching…" and a cancel appears); the game starts from the lobby socket's
// `game_started`. The pool joined is remembered for this tab, as the server keeps the place
// for 30 s across a reload.

import { h } from './dom';
import { pt, fmt, digits } from './i18n';
import { lobbyApi, type Pool } from './players-api';
import { currentUser } from './session';
import { errorMessage } from './errors';
import { spaLink } from './router';

const POOL_IDS = ['1+0', '3+0', '3+2', '5+0', '5+3', '10+0', '10+5', '15+10', '30+0'];
const KEY = 'arbiter.pool';

function remembered(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

function remember(id: string | null): void {
  try {
    if (id) sessionStorage.setItem(KEY, id);
    else sessionStorage.removeItem(KEY);
  } catch {
    /* private mode */
  }
}

/** Forgets the pool place (a game started from it). */
export function forgetPool(): void {
  remember(null);
}

export function poolsCard(): { el: HTMLElement; update: (pools: Pool[]) => void } {
  const p = pt();
  const loggedIn = currentUser() !== null;
  let joined: string | null = loggedIn ? remembered() : null;
  /** The place remembered from before a reload is checked against the first lobby message. */
  let restored = joined !== null;
  let pools: Pool[] = POOL_IDS.map((id) => ({ id, time_control: id, speed: '', waiting: -1 }));
  const grid = h('div', { class: 'pools', 'data-testid': 'pools' });
  const errorBox = h('p', { class: 'error', role: 'alert', hidden: true });
  const cancel = h(
    'button',
    { type: 'button', class: 'small', 'data-testid': 'pool-cancel', hidden: true, onclick: () => void leave() },
    `✕ ${p.cancelSearch}`,
  );

  async function leave(): Promise<void> {
    try {
      await lobbyApi.leavePool();
      joined = null;
      remember(null);
      errorBox.hidden = true;
    } catch (err) {
      errorBox.textContent = errorMessage(err);
      errorBox.hidden = false;
    }
    draw();
  }

  async function join(id: string): Promise<void> {
    if (joined === id) return leave();
    try {
      // One pool at a time: moving to another leaves the first.
      if (joined) await lobbyApi.leavePool();
      await lobbyApi.joinPool(id);
      joined = id;
      remember(id);
      errorBox.hidden = true;
    } catch (err) {
      errorBox.textContent = errorMessage(err);
      errorBox.hidden = false;
    }
    draw();
  }

  function draw(): void {
    const q = pt();
    grid.replaceChildren(
      ...pools.map((pool) => {
        const searching = joined === pool.id;
        return h(
          'button',
          {
            type: 'button',
            class: `pool${searching ? ' searching' : ''}`,
            'data-pool': pool.id,
            'data-testid': `pool-${pool.id}`,
            'aria-pressed': String(searching),
            disabled: !loggedIn,
            onclick: () => void join(pool.id),
          },
          h('span', { class: 'pool-tc', dir: 'ltr' }, digits(pool.time_control)),
          h('span', { class: 'pool-speed' }, pool.speed ? (q.speeds[pool.speed] ?? pool.speed) : '\u00a0'),
          h(
            'span',
            { class: 'pool-waiting', 'data-testid': `pool-waiting-${pool.id}` },
            searching ? q.searching : pool.waiting >= 0 ? fmt(q.waitingN, { n: digits(String(pool.waiting)) }) : '\u00a0',
          ),
        );
      }),
    );
    cancel.hidden = !joined;
  }
  draw();

  const prompt = loggedIn
    ? null
    : h(
        'p',
        { class: 'login-prompt', 'data-testid': 'login-prompt' },
        p.logInToPlay,
        ' ',
        spaLink(h('a', { href: '/login' }, p.logIn)),
        ' · ',
        spaLink(h('a', { href: '/signup' }, p.signUp)),
      );
  const el = h('section', { class: 'card quick', 'aria-labelledby': 'quick-title' }, h('h2', { id: 'quick-title' }, p.quickPairing), h('p', { class: 'help' }, p.quickPairingHelp), prompt, grid, cancel, errorBox);
  return {
    el,
    update: (list) => {
      if (list.length) pools = list;
      if (restored && list.length) {
        restored = false;
        // Nobody waits there: the server dropped the place (more than 30 s away).
        if (pools.find((x) => x.id === joined)?.waiting === 0) {
          joined = null;
          remember(null);
        }
      }
      draw();
    },
  };
}
