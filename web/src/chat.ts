// A game's chat: the players' room (for the two players only) and the spectators' room, as
// tabs; lines from `GET /api/games/{id}/chat`, then live from its NDJSON stream. "Hide chat"
// is remembered per user in this browser. During a tournament round the players' room is
// closed (Art. 11.3: no communication about the game); the server says so in `player_closed`.

import { h, id } from './dom';
import { fmt, digits, timeText, pt } from './i18n';
import { ct } from './i18n-challenge';
import { chatApi } from './challenge-api';
import { chatLineOf, chatText, chatHiddenKey, mergeChat, CHAT_MAX, type ChatLine, type ChatRoom } from './challenge-logic';
import { NdjsonStream } from './ndjson';
import { currentUser } from './session';
import { ApiError } from './api';
import { errorMessage } from './errors';
import { nameLink } from './player-tag';
import { spaLink } from './router';

function loadHidden(): boolean {
  try {
    return localStorage.getItem(chatHiddenKey(currentUser()?.username)) === '1';
  } catch {
    return false;
  }
}

function saveHidden(hidden: boolean): void {
  try {
    const key = chatHiddenKey(currentUser()?.username);
    if (hidden) localStorage.setItem(key, '1');
    else localStorage.removeItem(key);
  } catch {
    /* private mode: for this page only */
  }
}

/** The chat panel of a game; hidden until the server has answered (and for good when the game
 * has no chat). `stop` closes its stream. */
export function chatPanel(gameId: string): { el: HTMLElement; stop: () => void } {
  const w = ct();
  let player: ChatLine[] | null = null;
  let spectator: ChatLine[] = [];
  let playerClosed = false;
  let room: ChatRoom = 'spectator';
  let chosen = false;
  let hidden = loadHidden();
  let stopped = false;
  const unread: Record<ChatRoom, number> = { player: 0, spectator: 0 };

  const toggle = h('button', { type: 'button', class: 'small chat-toggle', 'data-testid': 'chat-toggle', onclick: () => setHidden(!hidden) });
  const tabs = h('div', { class: 'chat-tabs', role: 'tablist', 'aria-label': w.chat });
  const log = h('ol', { class: 'chat-lines', role: 'log', 'aria-live': 'polite', 'data-testid': 'chat-lines', id: id('chat-log') });
  const note = h('p', { class: 'chat-note muted', 'data-testid': 'chat-closed', hidden: true });
  const input = h('input', { type: 'text', maxlength: CHAT_MAX, autocomplete: 'off', dir: 'auto', 'data-testid': 'chat-input', 'aria-label': w.chat });
  const counter = h('span', { class: 'chat-count muted', dir: 'ltr', 'aria-hidden': 'true' });
  const sendBtn = h('button', { type: 'submit', class: 'small', 'data-testid': 'chat-send' }, w.send);
  const errorBox = h('p', { class: 'error', role: 'alert', hidden: true });
  const form = h('form', { class: 'chat-form' }, h('div', { class: 'row' }, input, sendBtn), counter);
  const login = h('p', { class: 'muted chat-login', hidden: true }, w.logInToChat, ' ', spaLink(h('a', { href: '/login' }, pt().logIn)));
  const body = h('div', { class: 'chat-body', id: id('chat-body') }, tabs, note, log, form, login, errorBox);
  toggle.setAttribute('aria-controls', body.id);
  const el = h(
    'section',
    { class: 'card chat', 'data-testid': 'chat', hidden: true, 'aria-label': w.chat },
    h('div', { class: 'chat-head' }, h('h2', {}, w.chat), toggle),
    body,
  );

  function setHidden(v: boolean): void {
    hidden = v;
    saveHidden(v);
    render();
    if (!v) input.focus();
  }

  function lines(r: ChatRoom): ChatLine[] {
    return r === 'player' ? (player ?? []) : spectator;
  }

  function renderTabs(): void {
    // A spectator has one room: no tabs.
    if (player === null) {
      tabs.hidden = true;
      tabs.replaceChildren();
      return;
    }
    tabs.hidden = false;
    tabs.replaceChildren(
      ...(['player', 'spectator'] as const).map((r) =>
        h(
          'button',
          {
            type: 'button',
            role: 'tab',
            class: 'chat-tab',
            'aria-selected': String(r === room),
            'aria-controls': log.id,
            'data-testid': `chat-tab-${r}`,
            onclick: () => {
              room = r;
              chosen = true;
              unread[r] = 0;
              render();
            },
          },
          r === 'player' ? w.playersRoom : w.spectatorsRoom,
          unread[r] && r !== room ? h('span', { class: 'unread', title: w.newMessages }, digits(String(unread[r]))) : null,
        ),
      ),
    );
  }

  // What the log shows, so that new lines are appended (a screen reader then reads only them).
  let shown: { room: ChatRoom | null; keys: string[] } = { room: null, keys: [] };
  const keyOf = (l: ChatLine) => `${l.at}\u0000${l.username}\u0000${l.text}`;
  const lineEl = (l: ChatLine) =>
    h(
      'li',
      { 'data-user': l.username },
      h('span', { class: 'chat-time muted', dir: 'ltr' }, timeText(l.at)),
      ' ',
      nameLink(l.username, { class: 'username chat-user' }),
      ' ',
      h('span', { class: 'chat-text', dir: 'auto' }, l.text),
    );

  function renderLog(): void {
    const ls = lines(room);
    const keys = ls.map(keyOf);
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 30;
    const extends_ = shown.room === room && shown.keys.length > 0 && shown.keys.length <= keys.length && shown.keys.every((k, i) => k === keys[i]);
    if (extends_) for (const l of ls.slice(shown.keys.length)) log.append(lineEl(l));
    else log.replaceChildren(...(ls.length ? ls.map(lineEl) : [h('li', { class: 'empty muted' }, w.noLines)]));
    if (shown.room !== room || atBottom) log.scrollTop = log.scrollHeight;
    shown = { room, keys };
  }

  function renderForm(): void {
    const me = currentUser();
    const closed = room === 'player' && playerClosed;
    note.hidden = !(room === 'player' && playerClosed);
    note.textContent = w.playersClosed;
    login.hidden = !!me;
    form.hidden = !me || closed;
    input.placeholder = room === 'player' ? w.toOpponent : w.toSpectators;
    const n = [...input.value].length;
    counter.textContent = n > CHAT_MAX - 30 ? fmt('{n}/{max}', { n: digits(String(n)), max: digits(String(CHAT_MAX)) }) : '';
  }

  function render(): void {
    toggle.textContent = hidden ? w.showChat : w.hideChat;
    toggle.setAttribute('aria-expanded', String(!hidden));
    el.classList.toggle('collapsed', hidden);
    body.hidden = hidden;
    renderTabs();
    renderLog();
    renderForm();
  }

  input.addEventListener('input', () => renderForm());
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = chatText(input.value);
    if (!text) return;
    sendBtn.disabled = true;
    try {
      await chatApi.say(gameId, room, text);
      input.value = '';
      errorBox.hidden = true;
      renderForm();
    } catch (err) {
      errorBox.textContent = errorMessage(err);
      errorBox.hidden = false;
      // The room may have closed meanwhile (a tournament round began).
      void load();
    } finally {
      sendBtn.disabled = false;
      input.focus();
    }
  });

  async function load(): Promise<void> {
    try {
      const v = await chatApi.view(gameId);
      if (stopped) return;
      player = Array.isArray(v.player) ? mergeChat(player ?? [], v.player) : null;
      spectator = mergeChat(spectator, Array.isArray(v.spectator) ? v.spectator : []);
      playerClosed = v.player_closed === true;
      // A player starts in the players' room.
      if (!chosen) room = player !== null ? 'player' : 'spectator';
      if (player === null) room = 'spectator';
      el.hidden = false;
      render();
    } catch (err) {
      // No chat for this game (or not on this server yet): no panel.
      if (err instanceof ApiError && (err.status === 404 || err.status === 405)) {
        el.hidden = true;
        stream.close();
      }
    }
  }

  const stream = new NdjsonStream(
    chatApi.streamUrl(gameId),
    (o) => {
      const got = chatLineOf(o);
      if (!got) return;
      if (got.room === 'player') {
        if (player === null) return;
        player = mergeChat(player, [got.line]);
      } else spectator = mergeChat(spectator, [got.line]);
      if (got.room !== room) unread[got.room] += 1;
      if (!el.hidden) render();
    },
    (s) => {
      // Connected (again): fetch the whole chat, which fills what a gap missed.
      if (s.open) void load();
      else if (s.status === 404) stream.close();
    },
  );
  void load();

  return {
    el,
    stop: () => {
      stopped = true;
      stream.close();
    },
  };
}
