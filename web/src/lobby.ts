// The start page: quick pairing and seeks (lobby-live.ts), then create a game, join an open
// one, watch a running one.

import { api, seats, splitLobby, ApiError, type CreateRequest, type GameSummary } from './api';
import { h, id } from './dom';
import { t, pt, fmt, digits, errorText } from './i18n';
import { timeControlPicker } from './timecontrol';
import { navigate } from './router';
import { lobbyLive } from './lobby-live';
import { currentUser, loadSession } from './session';
import { nameLink } from './player-tag';

export function renderLobby(root: HTMLElement, params: URLSearchParams): () => void {
  const d = t();
  const p = pt();
  const me = currentUser();
  // The ratings shown and checked against seek ranges may have changed since the page loaded.
  if (me) void loadSession();
  const tc = timeControlPicker(params.get('tc') ?? '5+3');

  // Variant: standard, Chess960 (number or random), or a FEN.
  const variantSel = h(
    'select',
    { id: id('variant'), 'data-testid': 'variant' },
    h('option', { value: 'standard' }, d.standard),
    h('option', { value: 'chess960' }, d.chess960),
    h('option', { value: 'fen' }, d.fromFen),
  );
  const n960 = h('input', { type: 'number', id: id('n960'), min: 0, max: 959, placeholder: d.random, inputmode: 'numeric' });
  const fen = h('input', { type: 'text', id: id('fen'), spellcheck: 'false', dir: 'ltr', placeholder: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' });
  const n960Field = h('label', { class: 'field', for: n960.id, hidden: true }, h('span', {}, d.positionNumber), n960);
  const fenField = h('label', { class: 'field wide', for: fen.id, hidden: true }, h('span', {}, d.fen), fen);
  variantSel.addEventListener('change', () => {
    n960Field.hidden = variantSel.value !== 'chess960';
    fenField.hidden = variantSel.value !== 'fen';
  });

  // Opponent: a friend (an invitation link) or the computer at a level 1–8.
  const opponentName = 'opponent-' + id('o');
  const opponents = (['friend', 'computer'] as const).map((o) =>
    h(
      'label',
      { class: `opponent-choice opponent-${o}` },
      h('input', { type: 'radio', name: opponentName, value: o, checked: o === 'friend', 'data-testid': `opponent-${o}` }),
      h('span', {}, o === 'friend' ? d.aFriend : d.theComputer),
    ),
  );
  const levelSel = h(
    'select',
    { id: id('lvl'), 'data-testid': 'level' },
    [1, 2, 3, 4, 5, 6, 7, 8].map((n) => h('option', { value: n, selected: n === 3 }, digits(String(n)))),
  );
  // External engines the server's operator configured, after the levels.
  api
    .engines()
    .then((e) => {
      if (!e.external?.length) return;
      levelSel.append(
        h(
          'optgroup',
          { label: d.otherEngines },
          e.external.map((x) => h('option', { value: `engine:${x.name}` }, x.id_name || x.name)),
        ),
      );
    })
    .catch(() => {});
  const levelField = h('label', { class: 'field', for: levelSel.id, hidden: true }, h('span', {}, d.level), levelSel);
  const vsComputer = () => (form.querySelector(`input[name="${opponentName}"]:checked`) as HTMLInputElement | null)?.value === 'computer';
  // Rated games are for accounts, between people (the server says so too: cannot_be_rated).
  const rated = h('input', { type: 'checkbox', id: id('rated'), 'data-testid': 'rated' });
  const ratedField = me ? h('label', { class: 'check', for: rated.id, title: p.ratedNeedsClock }, rated, h('span', {}, p.ratedGame)) : null;
  for (const o of opponents)
    o.addEventListener('change', () => {
      levelField.hidden = !vsComputer();
      rated.disabled = vsComputer();
      if (vsComputer()) rated.checked = false;
    });

  const colorName = 'color-' + id('c');
  const colors = (['white', 'random', 'black'] as const).map((c) =>
    h(
      'label',
      { class: `color-choice color-${c}` },
      h('input', { type: 'radio', name: colorName, value: c, checked: c === 'random' }),
      h('span', {}, c === 'white' ? d.white : c === 'black' ? d.black : d.random),
    ),
  );

  // The competition options that apply online (arbiter-game `Rules`).
  const drawSel = h(
    'select',
    { id: id('draws') },
    h('option', { value: 'allowed' }, d.drawAllowed),
    h('option', { value: 'not_before' }, d.drawNotBefore),
    h('option', { value: 'never' }, d.drawNever),
  );
  const drawMove = h('input', { type: 'number', id: id('dm'), min: 1, max: 200, value: 30, inputmode: 'numeric' });
  const drawMoveField = h('label', { class: 'field', for: drawMove.id, hidden: true }, h('span', {}, d.moves), drawMove);
  drawSel.addEventListener('change', () => (drawMoveField.hidden = drawSel.value !== 'not_before'));
  const allowAbort = h('input', { type: 'checkbox', id: id('ab'), checked: true });
  const penalty = h('input', { type: 'number', id: id('pen'), min: 0, max: 600, placeholder: '120', inputmode: 'numeric' });
  const scoringSel = h(
    'select',
    { id: id('sc') },
    h('option', { value: 'fide' }, digits('1 – ½ – 0')),
    h('option', { value: '310' }, digits('3 – 1 – 0')),
  );
  const rulesBox = h(
    'details',
    { class: 'rules' },
    h('summary', {}, d.competitionRules),
    h('label', { class: 'field', for: drawSel.id }, h('span', {}, d.drawOffersRule), drawSel),
    drawMoveField,
    h('label', { class: 'check', for: allowAbort.id }, allowAbort, h('span', {}, d.allowAbort)),
    h('label', { class: 'field', for: penalty.id }, h('span', {}, d.penaltySeconds), penalty),
    h('label', { class: 'field', for: scoringSel.id }, h('span', {}, d.scoring), scoringSel),
  );

  const errorBox = h('p', { class: 'error', role: 'alert', hidden: true });
  const createBtn = h('button', { type: 'submit', class: 'primary', 'data-testid': 'create' }, d.create);

  const form = h(
    'form',
    { class: 'card create', 'aria-labelledby': 'create-title' },
    h('h2', { id: 'create-title' }, d.newGame),
    tc.el,
    h(
      'fieldset',
      {},
      h('legend', {}, d.variant),
      h('label', { class: 'field', for: variantSel.id }, h('span', { class: 'sr-only' }, d.variant), variantSel),
      n960Field,
      fenField,
    ),
    h('fieldset', { class: 'opponents' }, h('legend', {}, d.playAgainst), opponents, levelField),
    h('fieldset', { class: 'colors' }, h('legend', {}, d.color), colors),
    ratedField,
    rulesBox,
    errorBox,
    createBtn,
  );

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    errorBox.hidden = true;
    const color = (form.querySelector(`input[name="${colorName}"]:checked`) as HTMLInputElement | null)?.value ?? 'random';
    const req: CreateRequest = {
      time_control: tc.value(),
      variant: variantSel.value === 'chess960' ? 'chess960' : 'standard',
      color: color as CreateRequest['color'],
    };
    if (variantSel.value === 'chess960') {
      // Empty: the server draws the start position (Guideline II).
      const n = n960.value.trim();
      if (n !== '') req.chess960_position = Number(n);
    }
    if (variantSel.value === 'fen' && fen.value.trim()) req.fen = fen.value.trim();
    const rules: Record<string, unknown> = {};
    if (drawSel.value === 'never') rules.draw_offers = 'never';
    if (drawSel.value === 'not_before') rules.draw_offers = { not_before_move: Number(drawMove.value) || 1 };
    if (!allowAbort.checked) rules.allow_abort = false;
    if (penalty.value.trim() !== '') rules.penalty_time_ms = Math.round(Number(penalty.value) * 1000);
    if (scoringSel.value === '310') rules.scoring = { win: 6, draw: 2, loss: 0 };
    if (Object.keys(rules).length) req.rules = rules;
    if (me && rated.checked) req.rated = true;
    if (vsComputer())
      req.computer = levelSel.value.startsWith('engine:')
        ? { engine: levelSel.value.slice('engine:'.length) }
        : { level: Number(levelSel.value) };
    createBtn.disabled = true;
    try {
      const grant = await api.create(req);
      seats.set(grant.id, grant);
      navigate(`/game/${grant.id}`);
    } catch (err) {
      errorBox.textContent = err instanceof ApiError ? errorText(err.code, err.message) : String(err);
      errorBox.hidden = false;
      createBtn.disabled = false;
    }
  });

  const openList = h('ul', { class: 'games', 'data-testid': 'open-games' }, h('li', { class: 'empty' }, d.noOpenGames));
  const runningList = h('ul', { class: 'games', 'data-testid': 'running-games' }, h('li', { class: 'empty' }, d.noRunningGames));
  const item = (g: GameSummary, action: 'join' | 'watch') => {
    const vs = g.computer?.level
      ? fmt(d.computerLevel, { level: digits(String(g.computer.level)) })
      : g.computer?.engine
        ? (g.computer.name ?? g.computer.engine)
        : '';
    const desc = [g.time_control ?? '', g.variant && g.variant !== 'standard' ? d.chess960 : '', vs]
      .filter(Boolean)
      .join(' · ');
    // The free seat is the one the joiner gets.
    const seat = g.open_seat ? (g.open_seat === 'white' ? d.youPlayWhite : d.youPlayBlack) : '';
    return h(
      'li',
      {},
      h('span', { class: 'tc-label', dir: 'ltr' }, digits(desc || g.id)),
      h('span', { class: 'creator', 'data-testid': `creator-${g.id}` }, g.creator ? nameLink(g.creator) : g.computer ? '' : p.anonymous),
      h('span', { class: 'mode' }, g.rated ? p.rated : p.casual),
      h('span', { class: 'seat' }, action === 'join' ? seat : ''),
      h(
        'button',
        {
          type: 'button',
          'data-testid': `${action}-${g.id}`,
          onclick: async () => {
            if (action === 'join') {
              try {
                const grant = await api.join(g.id);
                seats.set(g.id, grant);
              } catch (err) {
                errorBox.textContent = err instanceof ApiError ? errorText(err.code, err.message) : String(err);
                errorBox.hidden = false;
                return;
              }
            }
            navigate(`/game/${g.id}`);
          },
        },
        action === 'join' ? d.join : d.watch,
      ),
    );
  };
  let stopped = false;
  const refresh = async () => {
    try {
      const { open, running } = splitLobby(await api.list());
      const mine = (g: GameSummary) => seats.get(g.id) !== null;
      openList.replaceChildren(...(open.length ? open.map((g) => (mine(g) ? item(g, 'watch') : item(g, 'join'))) : [h('li', { class: 'empty' }, d.noOpenGames)]));
      runningList.replaceChildren(...(running.length ? running.map((g) => item(g, 'watch')) : [h('li', { class: 'empty' }, d.noRunningGames)]));
    } catch {
      /* the server is away; try again later */
    }
  };
  void refresh();
  const timer = window.setInterval(() => {
    if (!stopped && document.visibilityState === 'visible') void refresh();
  }, 4000);

  const live = lobbyLive();
  root.replaceChildren(
    live.el,
    h(
      'div',
      { class: 'lobby' },
      form,
      h(
        'section',
        { class: 'card lists' },
        h('h2', {}, d.openGames),
        openList,
        h('h2', {}, d.runningGames),
        runningList,
        h('button', { type: 'button', class: 'small', onclick: () => void refresh() }, d.refresh),
      ),
    ),
  );
  return () => {
    stopped = true;
    window.clearInterval(timer);
    live.stop();
  };
}
