// A game: the board, both clocks, the move list, the draw / claim / resign / abort buttons, the
// result, and the keyboard way to play. Everything shown comes from the server's state; the
// client only adds hints (legal moves, valid claims) and counts the clocks down between two
// server figures.

import { Chessground } from 'chessground';
import type { Api as CgApi } from 'chessground/api';
import type { Key } from 'chessground/types';
import { api, seats, GameStream, ApiError, type GameState, type Seat, type SeatGrant } from './api';
import {
  replay as replayGame,
  dests as legalDests,
  isPromotion,
  parseSquareName,
  moveToUci,
  uciToMove,
  translateSan,
  parseTyped,
  claims as claimInfo,
  moveWords,
  positionWords,
  makeFen,
  type Replay,
  type NormalMove,
  type Role,
} from './chess';
import { h } from './dom';
import { t, pt, tt, fmt, lang, digits, colorName, verdict, verdictText, errorText } from './i18n';
import { currentUser } from './session';
import { seatOf } from './ratings';
import { playerTag } from './player-tag';
import { rematchBox } from './rematch';
import { formatClock, simpleDelayMs } from './timecontrol';
import { announce, sound, loadPrefs, savePrefs, type Prefs } from './feedback';
import { navigate, spaLink, tournamentPath } from './router';
import { tournamentRef } from './tournament-logic';
import { tournamentsApi } from './tournaments-api';
import { at } from './analysis/i18n';
import { chatPanel } from './chat';

/** "C50 Italian Game" of a view's `opening`, or ''. */
function openingText(o: unknown): string {
  const op = o as { eco?: string; name?: string } | null | undefined;
  return op?.eco && op.name ? `${op.eco} ${op.name}` : '';
}

const opposite = (s: Seat): Seat => (s === 'white' ? 'black' : 'white');


/** The first half-move count at which a draw may be offered: Art. 5.2.3 (both players have
 * moved) and the competition's Art. 9.1.1 rule (`never`, `{"not_before_move": n}`). */
function drawOffersFrom(rules: unknown): number {
  const r = (rules ?? {}) as { draw_offers?: unknown };
  if (r.draw_offers === 'never') return Infinity;
  const n = (r.draw_offers as { not_before_move?: number } | null)?.not_before_move;
  return typeof n === 'number' ? Math.max(2, 2 * n) : 2;
}

export function renderGame(root: HTMLElement, id: string): () => void {
  const d = t();
  const prefs: Prefs = loadPrefs();
  let grant: SeatGrant | null = seats.get(id);
  let state: GameState | null = null;
  let receivedAt = performance.now();
  let rp: Replay | null = null;
  let rpKey = '';
  let orientation: Seat = grant?.seat ?? 'white';
  /** The board has been turned to the player's side once (a seat held by the account is
   * known only from the first state). */
  let oriented = grant !== null;
  /** The rating changes of the final event, before the view carries them. */
  let finalDiff: { white: number; black: number } | null = null;
  let leaving = false;
  let offerWithMove = false;
  let lastCount = -1;
  let lastStatus = '';
  let lastOffer: string | null | undefined = undefined;
  let busy = false;
  let confirming: 'resign' | 'abort' | null = null;
  let stopped = false;
  const maxSeen = { white: 1, black: 1 };
  let lowWarned = false;
  let stream: GameStream | null = null;
  let turnStartedAt = performance.now();
  let lastBoardKey = '';
  /** A past position being looked at (half-moves from the start), or null for the game now. */
  let viewPly: number | null = null;

  // ---- Layout ----
  const boardEl = h('div', { class: 'cg-wrap', 'data-testid': 'board', role: 'img', 'aria-label': d.boardLabel });
  const promoEl = h('div', { class: 'promo', hidden: true, role: 'dialog', 'aria-label': d.promoteTo });
  const clockEls = {
    top: h('div', { class: 'clock', role: 'timer', 'aria-live': 'off' }),
    bottom: h('div', { class: 'clock', role: 'timer', 'aria-live': 'off' }),
  };
  const nameEls = { top: h('div', { class: 'name' }), bottom: h('div', { class: 'name' }) };
  const statusEl = h('div', { class: 'status', 'data-testid': 'status' });
  const metaEl = h('div', { class: 'game-meta muted', 'data-testid': 'game-meta' });
  // A tournament game: the way back to its tournament (and, for its player, the check-in).
  const tournamentEl = h('div', { class: 'game-tournament', hidden: true, 'data-testid': 'game-tournament' });
  let checkedIn = false;
  const resultEl = h('div', { class: 'result', 'data-testid': 'result', hidden: true, role: 'status' });
  const inviteEl = h('div', { class: 'invite', hidden: true });
  const offerEl = h('div', { class: 'offer', hidden: true });
  const rematchEl = h('div', { class: 'rematch', 'data-testid': 'rematch-box' });
  const movesEl = h('ol', { class: 'moves', 'data-testid': 'moves', 'aria-label': d.movesTitle });
  const controlsEl = h('div', { class: 'controls' });
  const liveBtn = h('button', { type: 'button', class: 'small live', hidden: true, 'data-testid': 'live', onclick: () => view(null) }, `⏭ ${d.backToGame}`);
  const claimEl = h('div', { class: 'claims', hidden: true });
  const errorEl = h('p', { class: 'error', role: 'alert', hidden: true });
  const connEl = h('p', { class: 'conn', hidden: true }, d.reconnecting);
  const moveInput = h('input', {
    type: 'text',
    id: 'move-input',
    autocomplete: 'off',
    autocapitalize: 'off',
    spellcheck: 'false',
    dir: 'ltr',
    'data-testid': 'move-input',
    'aria-describedby': 'move-help',
  });
  const moveForm = h(
    'form',
    { class: 'typed' },
    h('label', { for: 'move-input' }, d.typeMove),
    h('div', { class: 'row' }, moveInput, h('button', { type: 'submit' }, d.play)),
  );
  // Not a live region itself: say() announces through the page's one live region.
  const moveHelp = h('p', { id: 'move-help', class: 'help', 'data-testid': 'move-help' });

  const prefBox = (key: keyof Prefs, label: string) => {
    const box = h('input', { type: 'checkbox', id: `pref-${key}`, checked: prefs[key] });
    box.addEventListener('change', () => {
      prefs[key] = box.checked;
      savePrefs(prefs);
      if (key === 'figurines') renderMoves();
    });
    return h('label', { class: 'check', for: box.id }, box, h('span', {}, label));
  };

  const a11y = h(
    'section',
    { class: 'card a11y', 'aria-label': d.accessible },
    h('h2', {}, d.accessible),
    moveForm,
    moveHelp,
    h(
      'div',
      { class: 'row wrap' },
      h('button', { type: 'button', 'data-testid': 'read-clocks', onclick: () => readClocks() }, d.readClocks),
      h('button', { type: 'button', 'data-testid': 'read-position', onclick: () => readPosition() }, d.readPosition),
      h('button', { type: 'button', onclick: () => readLastMove() }, d.readLastMove),
    ),
    prefBox('speak', d.speak),
    prefBox('appendixD', d.appendixD),
    prefBox('sounds', d.sounds),
    prefBox('figurines', `${d.notation}: ${d.figurines}`),
  );

  // The chat: the players' room and the spectators' room (hidden when the game has none).
  const chat = chatPanel(id);

  const player = (pos: 'top' | 'bottom') => h('div', { class: `player ${pos}`, 'data-pos': pos }, nameEls[pos], clockEls[pos]);
  root.replaceChildren(
    // Keyboard users reach the move field first (Appendix D: play without the board).
    h('a', { class: 'skip', href: '#move-input', onclick: (e: Event) => (e.preventDefault(), moveInput.focus()) }, d.skipToMove),
    h(
      'div',
      { class: 'game' },
      h('div', { class: 'board-col' }, player('top'), h('div', { class: 'board-wrap', dir: 'ltr' }, boardEl, promoEl), player('bottom')),
      h(
        'aside',
        { class: 'side' },
        h('div', { class: 'card' }, tournamentEl, metaEl, statusEl, resultEl, rematchEl, connEl, inviteEl, offerEl, claimEl, errorEl, h('h2', { class: 'sr-only' }, d.movesTitle), movesEl, liveBtn, controlsEl),
        chat.el,
        a11y,
      ),
    ),
  );

  const onResize = () => cg.redrawAll();
  window.addEventListener('resize', onResize);
  const cg: CgApi = Chessground(boardEl, {
    coordinates: true,
    orientation,
    viewOnly: false,
    movable: { free: false, color: undefined, showDests: true, events: { after: onBoardMove } },
    premovable: { enabled: true, showDests: true },
    draggable: { enabled: true, showGhost: true },
    animation: { enabled: true, duration: 200 },
    highlight: { lastMove: true, check: true },
  });

  // ---- Helpers over the state ----
  // A seat is held by its token (kept in this browser) or by the logged-in account.
  const accountSeat = (): Seat | null => seatOf(state?.players, currentUser()?.username);
  const mySeat = (): Seat | null => grant?.seat ?? accountSeat();
  /** What acts for the player: the seat token, or '' (the session cookie does). */
  const seatGrant = (): SeatGrant | null => {
    if (grant) return grant;
    const seat = accountSeat();
    return seat ? { seat, token: '' } : null;
  };
  const chess960 = () => (state?.variant ?? '').toString().includes('960');
  const current = () => (rp ? rp.positions[rp.positions.length - 1] : null);
  const playing = () => state?.status === 'playing';
  const myTurn = () => playing() && mySeat() !== null && state?.turn === mySeat();

  function showError(msg: string | null): void {
    errorEl.textContent = msg ?? '';
    errorEl.hidden = !msg;
  }

  function errText(err: unknown): string {
    if (err instanceof ApiError) return errorText(err.code, err.message);
    return String(err);
  }

  // ---- Talking to the server ----
  let fetching = false;
  let again = false;
  async function refresh(): Promise<void> {
    if (fetching) {
      again = true;
      return;
    }
    fetching = true;
    try {
      const s = await api.game(id, grant?.token);
      apply(s);
      showError(null);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        statusEl.textContent = d.notFound;
      }
    } finally {
      fetching = false;
      if (again) {
        again = false;
        void refresh();
      }
    }
  }

  async function act(f: () => Promise<unknown>): Promise<boolean> {
    if (!mySeat()) return false;
    busy = true;
    try {
      const res = await f();
      showError(null);
      const ack = res as { game?: GameState } | null;
      if (ack && ack.game && typeof ack.game.fen === 'string') apply(ack.game);
      else await refresh();
      return true;
    } catch (err) {
      showError(errText(err));
      await refresh();
      return false;
    } finally {
      busy = false;
    }
  }

  function sendMove(m: NormalMove): void {
    const pos = current();
    if (!pos || !mySeat()) return;
    const uci = moveToUci(pos, m, chess960());
    // Show the move at once; the server's answer confirms or undoes it.
    const after = pos.clone();
    after.play(m);
    cg.set({
      fen: makeFen(after.toSetup()),
      turnColor: after.turn,
      lastMove: [uci.slice(0, 2), uci.slice(2, 4)] as Key[],
      check: after.isCheck() ? after.turn : false,
      // Still the player's pieces: a premove can be set while the server confirms.
      movable: { color: pos.turn, dests: new Map() },
    });
    lastBoardKey = '';
    viewPly = null;
    const offer = offerWithMove;
    offerWithMove = false;
    const g = seatGrant()!;
    const ply = state?.moves.length;
    void act(() => api.move(id, g.token, uci, { offerDraw: offer, ply, lagMs: stream?.lagMs() }));
  }

  function onBoardMove(orig: Key, dest: Key, meta?: { premove?: boolean }): void {
    const pos = current();
    if (!pos) return;
    const from = parseSquareName(orig);
    const to = parseSquareName(dest);
    if (from === undefined || to === undefined) return;
    if (isPromotion(pos, orig, dest)) {
      // A premove promotes to a queen: there was no moment to ask.
      if (meta?.premove) return sendMove({ from, to, promotion: 'queen' });
      choosePromotion(pos.turn, (role) => {
        if (role) sendMove({ from, to, promotion: role });
        else {
          lastBoardKey = '';
          render();
        }
      });
      return;
    }
    sendMove({ from, to });
  }

  function choosePromotion(color: Seat, done: (r: Role | null) => void): void {
    const fig: Record<string, string> = color === 'white' ? { queen: '♕', rook: '♖', bishop: '♗', knight: '♘' } : { queen: '♛', rook: '♜', bishop: '♝', knight: '♞' };
    const names = d.words as Record<string, string>;
    const close = (r: Role | null) => {
      promoEl.hidden = true;
      promoEl.replaceChildren();
      done(r);
    };
    promoEl.replaceChildren(
      h('p', {}, d.promoteTo),
      h(
        'div',
        { class: 'row' },
        (['queen', 'rook', 'bishop', 'knight'] as Role[]).map((r) =>
          h('button', { type: 'button', class: 'piece', 'aria-label': names[r], 'data-role': r, title: names[r], onclick: () => close(r) }, fig[r]),
        ),
      ),
      h('button', { type: 'button', class: 'small', onclick: () => close(null) }, d.cancel),
    );
    promoEl.hidden = false;
    (promoEl.querySelector('button') as HTMLButtonElement | null)?.focus();
  }

  // ---- Applying a state ----
  function apply(s: GameState): void {
    const before = state;
    state = s;
    if (!oriented && mySeat()) {
      orientation = mySeat()!;
      oriented = true;
    }
    // The rematch started while this page missed the notice (a reconnection): go there.
    if (before && !before.rematch && s.rematch && mySeat()) {
      goRematch(s.rematch);
      return;
    }
    // The figures are as of the server's response, which took about the one-way lag to come.
    receivedAt = performance.now() - (stream?.lagMs() ?? 0);
    stream?.seen(s.last_seq);
    const init = s.initial_fen ?? null;
    const key = `${init}|${s.moves.map((m) => m.uci).join(' ')}|${s.fen}`;
    if (key !== rpKey) {
      rp = replayGame(init ?? (chess960() ? null : undefined), s.moves.map((m) => m.uci), s.fen);
      rpKey = key;
    }
    if (s.clocks) {
      maxSeen.white = Math.max(maxSeen.white, s.clocks.white_ms ?? 0);
      maxSeen.black = Math.max(maxSeen.black, s.clocks.black_ms ?? 0);
    }
    const count = s.moves.length;
    if (count !== lastCount || s.status !== lastStatus) turnStartedAt = receivedAt;
    const newMove = lastCount >= 0 && count > lastCount;
    if (newMove) onNewMove();
    if (lastStatus && lastStatus !== s.status && s.status === 'playing') sound('notify', prefs);
    if (lastStatus && lastStatus !== 'finished' && s.status === 'finished') {
      sound('notify', prefs);
      announce(verdictText(verdict(s.result, s.termination, s.status)), prefs);
    }
    if (lastOffer !== undefined && s.draw_offer && s.draw_offer !== lastOffer && s.draw_offer !== mySeat()) {
      announce(d.opponentOffers, prefs);
    }
    lastOffer = s.draw_offer ?? null;
    lastCount = count;
    lastStatus = s.status;
    // The opponent has moved: a player looking at the past is brought back to the game.
    if (newMove && myTurn()) viewPly = null;
    render();
    if (newMove && myTurn()) cg.playPremove();
  }

  function onNewMove(): void {
    if (!state || !rp) return;
    const i = state.moves.length - 1;
    const before = rp.positions[i];
    const m = before ? uciToMove(before, state.moves[i].uci) : null;
    if (m && before) {
      sound(before.board.get(m.to) ? 'capture' : 'move', prefs);
      const who = colorName(before.turn);
      announce(`${who}: ${moveWords(before, m, d.words, prefs.appendixD)}`, prefs, prefs.appendixD);
    } else sound('move', prefs);
  }

  // ---- Rendering ----
  function render(): void {
    if (!state) return;
    const s = state;
    const pos = current();
    const me = mySeat();
    if (viewPly !== null && (!rp || !rp.complete || viewPly >= s.moves.length)) viewPly = null;
    const shownPly = viewPly ?? s.moves.length;
    const last = s.moves[shownPly - 1];
    const lastMove = last ? ([last.uci.slice(0, 2), last.uci.slice(2, 4)] as Key[]) : undefined;
    const viewed = viewPly !== null && rp ? rp.positions[viewPly] : null;
    const canMove = playing() && me !== null && viewed === null;
    // Touch the board only when what it shows changes: a redundant update in the middle of a
    // click or drag would lose the player's selection or premove.
    const boardKey = [s.fen, orientation, s.turn, lastMove?.join(''), canMove ? me : '-', s.status, chess960(), viewPly].join('|');
    if (boardKey !== lastBoardKey) {
      lastBoardKey = boardKey;
      cg.set({
        fen: viewed ? makeFen(viewed.toSetup()) : s.fen,
        orientation,
        turnColor: viewed ? viewed.turn : s.turn,
        lastMove,
        check: viewed ? (viewed.isCheck() ? viewed.turn : false) : pos && pos.isCheck() ? s.turn : false,
        movable: {
          color: canMove ? me : undefined,
          dests: canMove && s.turn === me && pos ? (legalDests(pos, chess960()) as Map<Key, Key[]>) : new Map(),
          rookCastle: !chess960(),
        },
        premovable: { enabled: canMove },
      });
    }
    if (!canMove) cg.cancelPremove();

    // Players and clocks: the bottom is the side the board is seen from.
    const bottom = orientation;
    const top = opposite(orientation);
    // The computer's seat is named by its level: "Computer (level 5)", or an external
    // engine's name.
    const computerName = (c: Seat) =>
      s.computer && s.computer.seat === c
        ? s.computer.engine
          ? ` · ${s.computer.name ?? s.computer.engine}`
          : ` · ${fmt(t().computerLevel, { level: digits(String(s.computer.level ?? '?')) })}`
        : '';
    // "White ★ · alice 1500? +12": the colour, the star of the player's own seat, then who
    // holds it (an account with its rating and, after a rated game, the change).
    const who = (c: Seat): (Node | string)[] => {
      if (s.computer && s.computer.seat === c) return [computerName(c)];
      const pl = s.players?.[c] ?? null;
      if (pl) return [' · ', playerTag({ ...pl, rating_diff: pl.rating_diff ?? finalDiff?.[c] ?? null }, { diff: true })];
      return s.seats?.[c] || me === c ? [` · ${pt().anonymous}`] : [];
    };
    for (const [el, c] of [
      [nameEls.top, top],
      [nameEls.bottom, bottom],
    ] as const) {
      // Drawn again only when it changes: a link under the pointer should stay put.
      const key = JSON.stringify([lang(), c, me, s.players?.[c] ?? null, s.seats?.[c] ?? null, s.computer ?? null, finalDiff]);
      if (el.dataset.key === key) continue;
      el.dataset.key = key;
      el.setAttribute('data-testid', `name-${c}`);
      el.replaceChildren(h('span', { class: 'seat-color' }, `${colorName(c)}${me === c ? ' ★' : ''}`), ...who(c));
    }
    for (const [el, c] of [
      [clockEls.top, top],
      [clockEls.bottom, bottom],
    ] as const) {
      el.dataset.color = c;
      el.setAttribute('data-testid', `clock-${c}`);
      el.setAttribute('aria-label', colorName(c));
    }
    tickClocks();

    // Status line, after what kind of game this is: "Rated · Blitz · 5+3".
    const d2 = t();
    const p2 = pt();
    const tour = tournamentRef(s);
    tournamentEl.hidden = !tour;
    if (tour) {
      const w = tt();
      tournamentEl.replaceChildren(
        spaLink(h('a', { href: tournamentPath(tour.id), 'data-testid': 'back-to-tournament' }, `← ${tour.name ?? w.tournaments}`)),
        tour.round ? h('span', { class: 'muted' }, ` · ${fmt(w.roundN, { n: digits(String(tour.round)) })}`) : '',
      );
      // Arrival at the board (Art. 6.7.1) counts from the page opening, before any move.
      if (me && s.status === 'playing' && !checkedIn) {
        checkedIn = true;
        tournamentsApi.present(tour.id).catch(() => {});
      }
    }
    metaEl.replaceChildren(
      s.rated ? p2.rated : p2.casual,
      s.speed ? ` · ${p2.speeds[s.speed] ?? s.speed}` : '',
      s.time_control ? ' · ' : '',
      s.time_control ? h('bdi', { dir: 'ltr' }, digits(String(s.time_control))) : '',
      openingText(s.opening) ? ' · ' : '',
      openingText(s.opening) ? h('span', { 'data-testid': 'opening' }, openingText(s.opening)) : '',
    );
    let status = '';
    if (s.status === 'waiting') status = d2.waiting;
    else if (s.status === 'withdrawn') status = pt().withdrawn;
    else if (s.status === 'playing' && s.computer?.seat === s.turn) status = d2.computerThinking;
    else if (s.status === 'playing') status = fmt(d2.toMove, { color: colorName(s.turn) });
    statusEl.textContent = [status, me ? (me === 'white' ? d2.youPlayWhite : d2.youPlayBlack) : s.status !== 'waiting' && s.status !== 'withdrawn' ? d2.spectating : ''].filter(Boolean).join(' · ');

    // Result.
    if (s.status === 'finished' || s.status === 'adjourned' || s.status === 'aborted') {
      const v = verdict(s.result, s.termination, s.status);
      resultEl.replaceChildren(
        h('strong', {}, v.headline),
        h('span', { class: 'score', dir: 'ltr' }, s.result && s.result !== '*' ? ` ${s.result.replace(/1\/2/g, '½')}` : ''),
        h('br'),
        h('span', {}, [v.reason && v.reason !== v.headline ? v.reason : '', v.article ? (/^[0-9]/.test(v.article) ? `${d2.art} ${digits(v.article)}` : v.article) : ''].filter(Boolean).join(lang() === 'fa' ? '، ' : ', ')),
      );
      resultEl.setAttribute('data-text', verdictText(v));
      resultEl.hidden = false;
    } else resultEl.hidden = true;

    // Invitation or join.
    if (s.status === 'waiting') {
      inviteEl.hidden = false;
      if (me) {
        const link = `${location.origin}/game/${id}`;
        const input = h('input', { type: 'text', readonly: true, value: link, dir: 'ltr', 'data-testid': 'invite-link', onfocus: (e: Event) => (e.target as HTMLInputElement).select() });
        const copy = h(
          'button',
          {
            type: 'button',
            onclick: async () => {
              try {
                await navigator.clipboard.writeText(link);
              } catch {
                input.select();
                document.execCommand?.('copy');
              }
              copy.textContent = t().copied;
            },
          },
          d2.copyLink,
        );
        // On phones the system's share sheet is the natural way to send a link.
        const share =
          'share' in navigator
            ? h('button', { type: 'button', onclick: () => void navigator.share({ title: d2.title, url: link }).catch(() => undefined) }, d2.share)
            : null;
        inviteEl.replaceChildren(h('p', {}, d2.invite), h('div', { class: 'row wrap' }, input, copy, share));
      } else if (s.rated && !currentUser()) {
        // Only an account can take a seat in a rated game.
        inviteEl.replaceChildren(h('p', { 'data-testid': 'rated-login' }, pt().ratedJoinLogIn, ' ', spaLink(h('a', { href: '/login' }, pt().logIn))));
      } else {
        inviteEl.replaceChildren(
          h(
            'button',
            {
              type: 'button',
              class: 'primary',
              'data-testid': 'join',
              onclick: async () => {
                try {
                  const g = await api.join(id);
                  seats.set(id, g);
                  grant = g;
                  orientation = g.seat;
                  await refresh();
                } catch (err) {
                  showError(err instanceof ApiError && err.status === 409 ? d2.gameFull : errText(err));
                }
              },
            },
            d2.joinThisGame,
          ),
        );
      }
    } else inviteEl.hidden = true;

    // A draw offer.
    if (playing() && s.draw_offer && me) {
      offerEl.hidden = false;
      if (s.draw_offer === me) offerEl.replaceChildren(h('p', {}, d2.drawOffered));
      else
        offerEl.replaceChildren(
          h('p', {}, d2.opponentOffers),
          h(
            'div',
            { class: 'row' },
            h('button', { type: 'button', class: 'primary', 'data-testid': 'accept-draw', onclick: () => void act(() => api.draw(id, seatGrant()?.token ?? '', 'accept')) }, d2.accept),
            h('button', { type: 'button', 'data-testid': 'decline-draw', onclick: () => void act(() => api.draw(id, seatGrant()?.token ?? '', 'decline')) }, d2.decline),
          ),
        );
    } else if (playing() && s.draw_offer && !me) {
      offerEl.hidden = false;
      offerEl.replaceChildren(h('p', {}, `${colorName(s.draw_offer)}: ${d2.offerDraw.toLowerCase()}`));
    } else offerEl.hidden = true;

    renderRematch();
    renderClaims();
    renderMoves();
    renderControls();
    syncBounds();
  }

  // chessground caches where the board is; if the page moved it (a clock appearing above it,
  // a banner), clicks would land on the wrong squares until the cache is cleared.
  function syncBounds(): void {
    const el = boardEl.querySelector('cg-board');
    if (!el) return;
    const now = el.getBoundingClientRect();
    const cached = cg.state.dom.bounds();
    if (Math.abs(now.top - cached.top) > 0.5 || Math.abs(now.left - cached.left) > 0.5 || Math.abs(now.width - cached.width) > 0.5) {
      cg.state.dom.bounds.clear();
    }
  }

  function renderRematch(): void {
    if (!state) return;
    const key = JSON.stringify([lang(), state.status, state.rematch ?? null, state.rematch_offer ?? null, mySeat()]);
    if (rematchEl.dataset.key === key) return;
    rematchEl.dataset.key = key;
    const box = rematchBox(state, mySeat(), { offer: () => void offerRematch(), decline: () => void declineRematch(), open: goRematch });
    rematchEl.replaceChildren(...(box ? [box] : []));
    rematchEl.hidden = !box;
  }

  async function offerRematch(): Promise<void> {
    try {
      const r = await api.rematch(id, seatGrant()?.token);
      showError(null);
      if (r.status === 'started' && r.game) return goRematch(r.game);
      if (state) state.rematch_offer = mySeat();
      render();
    } catch (err) {
      showError(errText(err));
    }
  }

  async function declineRematch(): Promise<void> {
    try {
      await api.declineRematch(id, seatGrant()?.token);
      showError(null);
      if (state) state.rematch_offer = null;
      render();
    } catch (err) {
      showError(errText(err));
    }
  }

  /** Opens the rematch; a seat held by a token here keeps the same token there, colours
   * swapped (the server gives the new seat to the same token). */
  function goRematch(next: string): void {
    if (leaving || stopped) return;
    leaving = true;
    if (grant) seats.set(next, { seat: opposite(grant.seat), token: grant.token });
    navigate(`/game/${encodeURIComponent(next)}`);
  }

  /** `{"type":"rematch","offer":seat|null}` or `{"type":"rematch","game":id}`: notices, not
   * events (the view says the same after a reconnection). */
  function onRematchNotice(ev: Record<string, unknown>): void {
    if (!state) return;
    if (typeof ev.game === 'string') {
      state.rematch = ev.game;
      if (mySeat()) return goRematch(ev.game);
    } else if ('offer' in ev) {
      const offer = (ev.offer as Seat | null) ?? null;
      state.rematch_offer = offer;
      if (offer && mySeat() && offer !== mySeat()) {
        sound('notify', prefs);
        announce(pt().opponentRematch, prefs);
      }
    }
    render();
  }

  function renderClaims(): void {
    const d2 = t();
    claimEl.replaceChildren();
    claimEl.hidden = true;
    const g = seatGrant();
    if (!state || !rp || !myTurn() || !g) return;
    const info = claimInfo(rp);
    // The server's `claimable` also counts claims that need a move (Art. 9.2.1.1, 9.3.1), so
    // whether a claim without a move is valid comes from the replay here; the server's field
    // must at least agree that some claim exists. A wrong claim costs time (Art. 9.5.3).
    const server = Array.isArray(state.claimable) ? state.claimable.length > 0 : true;
    if (!server) return;
    const now = info.now.length > 0;
    if (now) {
      const why = info.now.map((w) => (w === 'threefold' ? `${d2.art} ${digits('9.2')}` : `${d2.art} ${digits('9.3')}`)).join(', ');
      claimEl.append(
        h('p', {}, fmt(d2.claimHint, { why: why || `${d2.art} ${digits('9.2')} / ${digits('9.3')}` })),
        h('button', { type: 'button', class: 'primary', 'data-testid': 'claim-draw', onclick: () => void act(() => api.draw(id, g.token, 'claim')) }, d2.claimDraw),
      );
    }
    if (info.withMove.length) {
      const pos = current()!;
      claimEl.append(
        h('p', {}, d2.claimMoveHint),
        h(
          'div',
          { class: 'row wrap' },
          info.withMove.slice(0, 6).map((c) => {
            const shown = translateSan(c.san, lang(), prefs.figurines, pos.turn);
            return h(
              'button',
              {
                type: 'button',
                'data-testid': `claim-with-${c.san}`,
                title: c.why === 'threefold' ? `${d2.art} 9.2.1.1` : `${d2.art} 9.3.1`,
                onclick: () => void act(() => api.draw(id, g.token, 'claim', moveToUci(pos, c.move, chess960()))),
              },
              fmt(d2.claimWithMove, { move: shown }),
            );
          }),
        ),
      );
    }
    claimEl.hidden = claimEl.childElementCount === 0;
  }

  function renderMoves(): void {
    if (!state) return;
    const s = state;
    const start = rp?.positions[0];
    let num = start && rp?.complete ? start.fullmoves : 1;
    let blackFirst = start && rp?.complete ? start.turn === 'black' : false;
    const items: HTMLElement[] = [];
    let li: HTMLElement | null = null;
    s.moves.forEach((m, i) => {
      const color: Seat = (i + (blackFirst ? 1 : 0)) % 2 === 0 ? 'white' : 'black';
      const san = m.san || rp?.sans[i] || m.uci;
      const text = translateSan(san, lang(), prefs.figurines, color);
      if (color === 'white' || li === null) {
        li = h('li', { value: num }, h('span', { class: 'num', 'aria-hidden': 'true' }, `${digits(String(num))}.`));
        if (color === 'black') li.append(h('span', { class: 'san empty' }, '…'));
        items.push(li);
      }
      const current = viewPly === null ? i === s.moves.length - 1 : i === viewPly - 1;
      li.append(
        h(
          'button',
          {
            type: 'button',
            class: `san ${current ? 'last' : ''}`,
            dir: 'ltr',
            'data-ply': i + 1,
            'aria-current': current ? 'step' : null,
            onclick: () => view(i + 1),
          },
          text,
        ),
      );
      if (color === 'black') {
        num += 1;
        li = null;
      }
    });
    blackFirst = false;
    movesEl.replaceChildren(...(items.length ? items : [h('li', { class: 'empty' }, t().noMoves)]));
    if (viewPly === null) movesEl.scrollTop = movesEl.scrollHeight;
    liveBtn.hidden = viewPly === null;
  }

  /** Looks at the position after `ply` half-moves; the last one is the game now. */
  function view(ply: number | null): void {
    if (!state || !rp || !rp.complete) return;
    const n = state.moves.length;
    viewPly = ply === null || ply >= n ? null : Math.max(0, ply);
    render();
    // Keep the focus in the list (it was re-drawn) so that the arrow keys go on working.
    const focusPly = viewPly === null ? n : Math.max(1, viewPly);
    (movesEl.querySelector(`[data-ply="${focusPly}"]`) as HTMLElement | null)?.focus();
  }

  // Arrow keys walk through the game when the move list has the focus.
  movesEl.addEventListener('keydown', (e) => {
    if (!state) return;
    const n = state.moves.length;
    const at = viewPly ?? n;
    const rtl = document.documentElement.dir === 'rtl';
    const step: Record<string, number> = { ArrowLeft: rtl ? 1 : -1, ArrowRight: rtl ? -1 : 1, ArrowUp: -2, ArrowDown: 2 };
    if (e.key in step) view(at + step[e.key]);
    else if (e.key === 'Home') view(0);
    else if (e.key === 'End') view(null);
    else return;
    e.preventDefault();
  });

  function renderControls(): void {
    if (!state) return;
    const s = state;
    const d2 = t();
    const me = mySeat();
    const g = seatGrant();
    const btns: (HTMLElement | null)[] = [];
    btns.push(
      h(
        'button',
        {
          type: 'button',
          'data-testid': 'flip',
          title: d2.flip,
          onclick: () => {
            orientation = opposite(orientation);
            render();
          },
        },
        `⇅ ${d2.flip}`,
      ),
    );
    if (confirming && g && playing()) {
      const what = confirming;
      btns.push(
        h('span', { class: 'confirm' }, d2.confirm),
        h(
          'button',
          {
            type: 'button',
            class: 'danger',
            'data-testid': 'confirm-yes',
            onclick: () => {
              confirming = null;
              void act(() => (what === 'resign' ? api.resign(id, g.token) : api.abort(id, g.token)));
            },
          },
          d2.yes,
        ),
        h(
          'button',
          {
            type: 'button',
            onclick: () => {
              confirming = null;
              renderControls();
            },
          },
          d2.no,
        ),
      );
    } else if (me && g && (playing() || s.status === 'waiting')) {
      const plies = s.moves.length;
      if (playing() && !s.draw_offer && plies >= drawOffersFrom(s.rules)) {
        btns.push(
          h(
            'button',
            {
              type: 'button',
              'data-testid': 'offer-draw',
              'aria-pressed': String(offerWithMove),
              onclick: () => {
                if (myTurn()) {
                  // Art. 9.1.2.1: the offer is made after one's own move, before pressing the clock.
                  offerWithMove = !offerWithMove;
                  moveHelp.textContent = offerWithMove ? d2.offerWithMove : '';
                  renderControls();
                } else void act(() => api.draw(id, g.token, 'offer'));
              },
            },
            `½ ${d2.offerDraw}`,
          ),
        );
      }
      // The creator may take back a game nobody has joined yet.
      if (s.status === 'waiting')
        btns.push(
          h('button', { type: 'button', class: 'danger', 'data-testid': 'withdraw', onclick: () => void act(() => api.withdraw(id, g.token)) }, `✕ ${pt().withdraw}`),
        );
      // Online convention: abort before both players have moved (if the competition allows it).
      const allowAbort = (s.rules as { allow_abort?: boolean } | undefined)?.allow_abort !== false;
      if (playing() && plies < 2 && allowAbort)
        btns.push(
          h(
            'button',
            {
              type: 'button',
              'data-testid': 'abort',
              onclick: () => {
                confirming = 'abort';
                renderControls();
              },
            },
            `✕ ${d2.abort}`,
          ),
        );
      if (playing())
        btns.push(
          h(
            'button',
            {
              type: 'button',
              class: 'danger',
              'data-testid': 'resign',
              onclick: () => {
                confirming = 'resign';
                renderControls();
              },
            },
            `⚐ ${d2.resign}`,
          ),
        );
    }
    if (s.moves.length > 0 || s.status === 'finished')
      btns.push(h('a', { class: 'button', href: api.pgnUrl(id), download: `arbiter-${id}.pgn`, 'data-testid': 'pgn' }, `↓ ${d2.downloadPgn}`));
    // The analysis board: after the game, or for spectators; never for a player while playing.
    if (s.status === 'finished' || s.imported || (!mySeat() && (s.status === 'playing' || s.status === 'adjourned')))
      btns.push(spaLink(h('a', { class: 'button', href: `/game/${encodeURIComponent(id)}/analysis`, 'data-testid': 'analysis-board' }, `⌕ ${at().analysisBoard}`)));
    if (s.status === 'finished' || s.status === 'aborted' || s.status === 'withdrawn')
      btns.push(
        h(
          'a',
          {
            class: 'button',
            href: `/?tc=${encodeURIComponent(s.time_control ?? '')}`,
            'data-testid': 'new-game',
            onclick: (e: Event) => {
              e.preventDefault();
              navigate(`/?tc=${encodeURIComponent(String(s.time_control ?? '5+3'))}`);
            },
          },
          `+ ${d2.newGame}`,
        ),
      );
    controlsEl.replaceChildren(...btns.filter((b): b is HTMLElement => b !== null));
  }

  // ---- Clocks: the server's figures, counted down locally with a monotonic timer ----
  function displayed(c: Seat): number | null {
    const cl = state?.clocks;
    if (!state || !cl) return null;
    const base = c === 'white' ? cl.white_ms : cl.black_ms;
    if (base === null || base === undefined) return null;
    if (state.status !== 'playing' || state.turn !== c) return base;
    // Simple delay (Art. 6.3.2): the main time waits until the delay of this move has run out.
    const delay = simpleDelayMs(state.time_control);
    const now = performance.now();
    const used = (at: number) => Math.max(0, at - turnStartedAt - delay);
    return base - (used(now) - used(receivedAt));
  }

  let flagAsked = 0;
  function tickClocks(): void {
    if (!state) return;
    for (const [el, pos] of [
      [clockEls.top, 'top'],
      [clockEls.bottom, 'bottom'],
    ] as const) {
      const c = (pos === 'bottom' ? orientation : opposite(orientation)) as Seat;
      const ms = displayed(c);
      if (ms === null) {
        el.textContent = '—';
        el.classList.remove('low', 'active');
        continue;
      }
      el.textContent = formatClock(ms);
      const active = state.status === 'playing' && state.turn === c;
      el.classList.toggle('active', active);
      const low = ms < Math.max(10_000, Math.min(60_000, maxSeen[c] * 0.1));
      el.classList.toggle('low', low && state.status === 'playing');
      if (active && low && c === mySeat() && !lowWarned) {
        lowWarned = true;
        sound('low', prefs);
      }
      // A flag has fallen on this screen: ask the server, which decides (Art. 6.8).
      if (active && ms <= 0 && performance.now() - flagAsked > 1000) {
        flagAsked = performance.now();
        void refresh();
      }
    }
  }
  const clockTimer = window.setInterval(() => {
    tickClocks();
    syncBounds();
  }, 100);

  // ---- Keyboard play and reading on demand (Appendix D) ----
  moveForm.addEventListener('submit', (e) => {
    e.preventDefault();
    const d2 = t();
    const text = moveInput.value;
    const pos = current();
    if (!pos || !state) return;
    if (!mySeat()) return say(d2.notPlaying);
    if (!myTurn()) return say(d2.notYourTurn);
    if (busy) return;
    const r = parseTyped(pos, text, lang());
    if ('ok' in r) {
      moveInput.value = '';
      moveHelp.textContent = '';
      sendMove(r.ok);
    } else if ('ambiguous' in r) {
      say(fmt(d2.ambiguousMove, { text, list: r.ambiguous.map((x) => translateSan(x, lang(), false, pos.turn)).join(', ') }));
    } else say(fmt(d2.unknownMove, { text }));
  });

  function say(text: string): void {
    moveHelp.textContent = text;
    announce(text, prefs);
  }

  function readClocks(): void {
    const parts = (['white', 'black'] as Seat[]).map((c) => {
      const ms = displayed(c);
      return fmt(t().clockOf, { color: colorName(c), time: ms === null ? '—' : formatClock(ms) });
    });
    say(parts.join(', '));
  }

  function readPosition(): void {
    const pos = current();
    if (!pos || !state) return;
    const w = positionWords(pos, t().words, prefs.appendixD);
    const d2 = t();
    say(
      [fmt(d2.piecesOf, { color: d2.white, list: w.white }), fmt(d2.piecesOf, { color: d2.black, list: w.black }), fmt(d2.toMove, { color: colorName(state.turn) })].join(' '),
    );
  }

  function readLastMove(): void {
    if (!state || !rp || state.moves.length === 0) return say(t().noMoves);
    const i = state.moves.length - 1;
    const before = rp.positions[i];
    const m = before ? uciToMove(before, state.moves[i].uci) : null;
    if (m && before) say(`${colorName(before.turn)}: ${moveWords(before, m, t().words, prefs.appendixD)}`);
    else say(state.moves[i].san);
  }

  // ---- Live stream ----
  stream = new GameStream(
    id,
    (ev) => {
      if (ev.type === 'state' && ev.game && typeof ev.game === 'object') apply(ev.game as GameState);
      else if (ev.type === 'rematch') onRematchNotice(ev);
      // An event carries clocks as of the event: the state fetched now is fresher and whole.
      else if (ev.type === 'event') {
        // The final event of a rated game carries the rating changes.
        const diff = ev.rating_diff as { white?: unknown; black?: unknown } | undefined;
        if (diff && typeof diff.white === 'number' && typeof diff.black === 'number') finalDiff = { white: diff.white, black: diff.black };
        void refresh();
      }
    },
    (connected) => {
      connEl.hidden = connected;
      if (connected) void refresh();
    },
  );
  // If the stream cannot be had at all, a slow poll keeps the page true.
  const poll = window.setInterval(() => {
    if (!stopped && connEl.hidden === false) void refresh();
  }, 3000);

  void refresh();
  return () => {
    stopped = true;
    stream?.close();
    chat.stop();
    window.clearInterval(clockTimer);
    window.clearInterval(poll);
    window.removeEventListener('resize', onResize);
    cg.destroy();
  };
}
