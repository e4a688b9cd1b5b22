// The director's console on a tournament's page (only the director sees it; the server checks
// again): start, pair the next round, pause and resume, open or close registration, enter
// players by name, enter or correct a result, Art. 12.9 penalties, withdraw and re-admit, byes,
// forbidden pairings. Each action says what happened, or the server's error, beside itself.

import { h, id as uid } from './dom';
import { tt, digits, colorName } from './i18n';
import { tournamentsApi, type Tournament, type TPlayer } from './tournaments-api';
import { resultText } from './tournament-logic';
import { tournamentError as errorMessage } from './errors';

const RESULTS = ['1-0', '1/2-1/2', '0-1', '+/-', '-/+', '-/-'];

export function directorConsole(id: string, changed: () => void): { el: HTMLElement; update: (s: Tournament) => void } {
  const w = tt();
  let state: Tournament | null = null;

  /** A section with its own status line; `run` does the request and reports. */
  const section = (title: string, testid: string, ...body: (Node | null)[]) => {
    const status = h('p', { class: 'console-status', role: 'status', 'data-testid': `${testid}-status` });
    const el = h('fieldset', { class: 'console-part', 'data-testid': testid }, h('legend', {}, title), ...body, status);
    const run = async (f: () => Promise<unknown>) => {
      status.textContent = '…';
      status.className = 'console-status muted';
      try {
        await f();
        status.textContent = w.done;
        status.className = 'console-status ok';
        changed();
      } catch (err) {
        status.textContent = errorMessage(err);
        status.className = 'console-status error';
      }
    };
    return { el, run };
  };
  const labelled = (label: string, input: HTMLElement) => h('label', { class: 'field', for: input.id }, h('span', {}, label), input);
  const select = (testid: string) => h('select', { id: uid('c'), 'data-testid': testid });
  /** Fills a select again, keeping the chosen value when it is still there. */
  const fill = (sel: HTMLSelectElement, options: [string, string][]) => {
    const was = sel.value;
    sel.replaceChildren(...options.map(([v, label]) => h('option', { value: v }, label)));
    if (options.some(([v]) => v === was)) sel.value = was;
  };
  const playerLabel = (p: TPlayer) => `${digits(String(p.no))}. ${p.name}${p.withdrawn ? ` (${w.withdrawnMark})` : ''}`;

  // ---- Flow: start, pair, pause/resume, registration ----
  const flow = section(w.flow, 'console-flow');
  const startBtn = h('button', { type: 'button', class: 'primary', 'data-testid': 'console-start', onclick: () => void flow.run(() => tournamentsApi.start(id)) }, `▶ ${w.start}`);
  const pairBtn = h('button', { type: 'button', 'data-testid': 'console-pair', onclick: () => void flow.run(() => tournamentsApi.pairNext(id)) }, w.pairNext);
  const pauseBtn = h('button', { type: 'button', 'data-testid': 'console-pause', onclick: () => void flow.run(() => (state?.paused ? tournamentsApi.resume(id) : tournamentsApi.pause(id))) }, w.pause);
  const regBtn = h('button', { type: 'button', 'data-testid': 'console-registration', onclick: () => void flow.run(() => tournamentsApi.setRegistration(id, !state?.registration_open)) }, w.closeRegistration);
  flow.el.insertBefore(h('div', { class: 'row wrap' }, startBtn, pairBtn, pauseBtn, regBtn), flow.el.lastChild);

  // ---- Enter a player by name ----
  const pName = h('input', { type: 'text', id: uid('pn'), maxlength: 80, 'data-testid': 'console-player-name', autocomplete: 'off' });
  const pRating = h('input', { type: 'number', id: uid('pr'), min: 0, max: 4000, inputmode: 'numeric', 'data-testid': 'console-player-rating' });
  const pTitle = h('input', { type: 'text', id: uid('pt'), maxlength: 3, class: 'short', dir: 'ltr', 'data-testid': 'console-player-title' });
  const pFed = h('input', { type: 'text', id: uid('pf'), maxlength: 3, class: 'short', dir: 'ltr', 'data-testid': 'console-player-fed' });
  // The server checks every field (its errors are shown); the browser's own checks would stop
  // the request without saying why in the page's language.
  const addForm = h(
    'form',
    { class: 'row wrap console-row', novalidate: true },
    labelled(w.addPlayerName, pName),
    labelled(w.rating, pRating),
    labelled(w.title, pTitle),
    labelled(w.federation, pFed),
    h('button', { type: 'submit', 'data-testid': 'console-add-player' }, w.add),
  );
  const add = section(w.addPlayer, 'console-add', h('p', { class: 'help' }, w.addPlayerHelp), addForm);
  addForm.addEventListener('submit', (e) => {
    e.preventDefault();
    const body: { name: string; rating?: number; title?: string; federation?: string } = { name: pName.value.trim() };
    if (pRating.value.trim()) body.rating = Number(pRating.value);
    if (pTitle.value.trim()) body.title = pTitle.value.trim();
    if (pFed.value.trim()) body.federation = pFed.value.trim().toUpperCase();
    void add.run(async () => {
      await tournamentsApi.addPlayer(id, body);
      pName.value = '';
      pRating.value = '';
      pTitle.value = '';
      pFed.value = '';
      pName.focus();
    });
  });

  // ---- Results ----
  const rRound = select('console-result-round');
  const rBoard = select('console-result-board');
  const rResult = select('console-result-value');
  fill(rResult, RESULTS.map((r) => [r, digits(resultText(r))]));
  const resultForm = h('form', { class: 'row wrap console-row', novalidate: true }, labelled(w.byeRound, rRound), labelled(w.board, rBoard), labelled(w.result, rResult), h('button', { type: 'submit', 'data-testid': 'console-set-result' }, w.set));
  const results = section(w.correctResult, 'console-result', resultForm);
  resultForm.addEventListener('submit', (e) => {
    e.preventDefault();
    if (!rRound.value || !rBoard.value) return;
    void results.run(() => tournamentsApi.setResult(id, Number(rRound.value), Number(rBoard.value), rResult.value));
  });
  rRound.addEventListener('change', () => fillBoards(rBoard, Number(rRound.value), false));

  // ---- Penalties (Art. 12.9) on games of the current round ----
  const penBoard = select('console-penalty-board');
  const penPlayer = select('console-penalty-player');
  fill(penPlayer, [
    ['white', colorName('white')],
    ['black', colorName('black')],
  ]);
  const penKind = select('console-penalty-kind');
  fill(penKind, [
    ['add_time', w.timeAdded],
    ['deduct_time', w.timeDeducted],
    ['declare_lost', w.declaredLost],
  ]);
  const penSeconds = h('input', { type: 'number', id: uid('ps'), min: 1, max: 3600, value: 120, inputmode: 'numeric', 'data-testid': 'console-penalty-seconds' });
  const penSecondsField = labelled(w.seconds, penSeconds);
  penKind.addEventListener('change', () => (penSecondsField.hidden = penKind.value === 'declare_lost'));
  const penForm = h('form', { class: 'row wrap console-row', novalidate: true }, labelled(w.penaltyGame, penBoard), labelled(w.penaltyPlayer, penPlayer), labelled(w.penaltyKind, penKind), penSecondsField, h('button', { type: 'submit', 'data-testid': 'console-apply-penalty' }, w.apply));
  const penalties = section(w.penalties, 'console-penalty', h('p', { class: 'help' }, w.penaltiesHelp), penForm);
  penForm.addEventListener('submit', (e) => {
    e.preventDefault();
    if (!state || !penBoard.value) return;
    const kind = penKind.value as 'add_time' | 'deduct_time' | 'declare_lost';
    const body: { kind: typeof kind; player: 'white' | 'black'; seconds?: number } = { kind, player: penPlayer.value as 'white' | 'black' };
    if (kind !== 'declare_lost') body.seconds = Number(penSeconds.value) || 0;
    void penalties.run(() => tournamentsApi.penalty(id, state!.current_round, Number(penBoard.value), body));
  });

  // ---- Withdraw / re-admit ----
  const wPlayer = select('console-withdraw-player');
  const withdraw = section(
    w.withdrawReadmit,
    'console-withdraw',
    h(
      'div',
      { class: 'row wrap console-row' },
      labelled(w.player, wPlayer),
      h('button', { type: 'button', class: 'danger', 'data-testid': 'console-withdraw-btn', onclick: () => wPlayer.value && void withdraw.run(() => tournamentsApi.withdrawPlayer(id, Number(wPlayer.value))) }, w.withdrawPlayer),
      h('button', { type: 'button', 'data-testid': 'console-readmit-btn', onclick: () => wPlayer.value && void withdraw.run(() => tournamentsApi.readmitPlayer(id, Number(wPlayer.value))) }, w.readmitPlayer),
    ),
  );

  // ---- Byes ----
  const bPlayer = select('console-bye-player');
  const bRound = h('input', { type: 'number', id: uid('br'), min: 1, max: 50, value: 1, inputmode: 'numeric', 'data-testid': 'console-bye-round' });
  const bKind = select('console-bye-kind');
  fill(bKind, [
    ['half', w.byes.half],
    ['full', w.byes.full],
    ['zero', w.byes.zero],
  ]);
  const byeForm = h('form', { class: 'row wrap console-row', novalidate: true }, labelled(w.player, bPlayer), labelled(w.byeRound, bRound), labelled(w.byeKind, bKind), h('button', { type: 'submit', 'data-testid': 'console-grant-bye' }, w.grant));
  const byes = section(w.grantBye, 'console-bye', byeForm);
  byeForm.addEventListener('submit', (e) => {
    e.preventDefault();
    if (!bPlayer.value) return;
    void byes.run(() => tournamentsApi.bye(id, Number(bPlayer.value), Number(bRound.value), bKind.value as 'half' | 'full' | 'zero'));
  });

  // ---- Forbidden pairings ----
  const fA = select('console-forbid-a');
  const fB = select('console-forbid-b');
  const forbidForm = h('form', { class: 'row wrap console-row', novalidate: true }, labelled(w.player, fA), h('span', { class: 'vs', 'aria-hidden': 'true' }, '×'), labelled(w.player, fB), h('button', { type: 'submit', 'data-testid': 'console-forbid' }, w.forbid));
  const forbid = section(w.forbidPairing, 'console-forbid-part', h('p', { class: 'help' }, w.forbidHelp), forbidForm);
  forbidForm.addEventListener('submit', (e) => {
    e.preventDefault();
    if (!fA.value || !fB.value) return;
    void forbid.run(() => tournamentsApi.forbid(id, Number(fA.value), Number(fB.value)));
  });

  function fillBoards(sel: HTMLSelectElement, round: number, runningOnly: boolean): void {
    const r = state?.rounds.find((x) => x.round === round);
    const byNo = new Map((state?.players ?? []).map((p) => [p.no, p.name] as const));
    const boards = (r?.boards ?? []).filter((b) => !runningOnly || (b.game && !b.result));
    fill(
      sel,
      boards.map((b) => [String(b.board), `${digits(String(b.board))}: ${byNo.get(b.white) ?? b.white} – ${byNo.get(b.black) ?? b.black}${b.result ? ` (${digits(resultText(b.result))})` : ''}`]),
    );
  }

  // Results first: an over-the-board event types them all.
  const parts = h('div', { class: 'console-parts' }, results.el, add.el, penalties.el, withdraw.el, byes.el, forbid.el);
  // The rarer actions fold away (the choice is remembered).
  const more = h('details', { class: 'console-more', 'data-testid': 'console-more' }, h('summary', {}, w.moreActions), parts);
  // Open by default on a wide screen; on a phone the pairings come first.
  let stored: string | null = null;
  try {
    stored = localStorage.getItem('arbiter.console.open');
  } catch {
    /* private mode */
  }
  more.open = stored !== null ? stored !== '0' : window.innerWidth > 820;
  more.addEventListener('toggle', () => {
    try {
      localStorage.setItem('arbiter.console.open', more.open ? '1' : '0');
    } catch {
      /* ignore */
    }
  });
  const el = h(
    'section',
    { class: 'card console', 'data-testid': 'console', 'aria-labelledby': 'console-title' },
    h('h2', { id: 'console-title' }, `⚖ ${w.console}`, ' ', h('small', { class: 'muted' }, w.consoleHelp)),
    flow.el,
    more,
  );

  function update(s: Tournament): void {
    state = s;
    const started = s.status !== 'upcoming';
    const finished = s.status === 'finished';
    startBtn.hidden = started;
    pairBtn.hidden = !started || finished;
    const last = s.rounds[s.rounds.length - 1];
    pairBtn.disabled = !!last && !last.complete;
    pauseBtn.hidden = finished;
    pauseBtn.textContent = s.paused ? w.resume : w.pause;
    regBtn.hidden = finished;
    regBtn.textContent = s.registration_open ? w.closeRegistration : w.openRegistration;
    add.el.hidden = finished;
    const players = [...s.players].sort((a, b) => a.no - b.no);
    const opts = players.map((p) => [String(p.no), playerLabel(p)] as [string, string]);
    for (const sel of [wPlayer, bPlayer, fA, fB]) fill(sel, opts);
    if (fA.value && fA.value === fB.value && opts.length > 1) fB.value = opts.find(([v]) => v !== fA.value)![0];
    // Results: any paired round (the latest by default).
    const rounds = s.rounds.map((r) => [String(r.round), digits(String(r.round))] as [string, string]);
    const hadRound = rRound.value;
    fill(rRound, rounds);
    if (!hadRound && rounds.length) rRound.value = rounds[rounds.length - 1][0];
    fillBoards(rBoard, Number(rRound.value), false);
    results.el.hidden = !rounds.length;
    // Penalties: games of the current round still being played.
    fillBoards(penBoard, s.current_round, true);
    penalties.el.hidden = !penBoard.options.length;
    // Byes and forbidden pairings are for Swiss events (a round robin's opponents are fixed).
    const swiss = (s.settings.system ?? 'swiss') === 'swiss';
    byes.el.hidden = !swiss || finished;
    forbid.el.hidden = !swiss || finished;
    const nextRound = s.current_round + 1;
    if (Number(bRound.value) < nextRound) bRound.value = String(nextRound);
    bRound.min = String(nextRound);
    withdraw.el.hidden = !players.length || finished;
  }

  return { el, update };
}
