// `/tournament/new`: the creation form. Every field has a default, so one click makes a usable
// event (a 5-round Swiss, 5+3, rated, online, registration open, started by the director); the server
// checks everything and its 4xx answer is shown as it is.

import { h, id } from './dom';
import { tt, fmt, digits } from './i18n';
import { timeControlPicker } from './timecontrol';
import { navigate, tournamentPath, spaLink } from './router';
import { currentUser } from './session';
import { tournamentError as errorMessage } from './errors';
import { tournamentsApi, TIEBREAKS, DEFAULT_TIEBREAKS, RR_TIEBREAKS, type CreateTournament } from './tournaments-api';
import { localInputToMs } from './tournament-logic';

export function renderTournamentCreate(root: HTMLElement): () => void {
  const w = tt();
  if (!currentUser()) {
    root.replaceChildren(
      h('div', { class: 'card narrow', 'data-testid': 'login-to-create' }, h('p', {}, w.logInToCreate), spaLink(h('a', { href: '/login', class: 'button primary' }, '→'))),
    );
    return () => {};
  }
  const field = (label: string, input: HTMLElement, help?: string, attrs: Record<string, string> = {}) =>
    h('label', { class: 'field', for: input.id, ...attrs }, h('span', {}, label), input, help ? h('small', { class: 'help' }, help) : null);

  const me = currentUser()!;
  const name = h('input', { type: 'text', id: id('tname'), maxlength: 80, value: fmt(w.defaultName, { name: me.username }), placeholder: w.namePlaceholder, 'data-testid': 't-name' });
  const system = h(
    'select',
    { id: id('tsys'), 'data-testid': 't-system' },
    (['swiss', 'round_robin', 'double_round_robin'] as const).map((s) => h('option', { value: s }, w.systems[s])),
  );
  const rounds = h('input', { type: 'number', id: id('trounds'), min: 1, max: 50, value: 5, inputmode: 'numeric', 'data-testid': 't-rounds' });
  const roundsField = field(w.rounds, rounds);
  const roundsHelp = h('p', { class: 'help', hidden: true }, w.roundsHelp);
  system.addEventListener('change', () => {
    const rr = system.value !== 'swiss';
    roundsField.hidden = rr;
    roundsHelp.hidden = !rr;
    lateField.hidden = rr;
    // The tie-breaks C.07 suggests for the system, unless the director chose some.
    if (!tbTouched) {
      order = rr ? [...RR_TIEBREAKS] : [...DEFAULT_TIEBREAKS];
      drawTiebreaks();
    }
  });
  const tc = timeControlPicker('5+3');
  const rated = h('input', { type: 'checkbox', id: id('trated'), checked: true, 'data-testid': 't-rated' });
  const start = h('input', { type: 'datetime-local', id: id('tstart'), dir: 'ltr', 'data-testid': 't-start' });

  const online = h('input', { type: 'checkbox', id: id('tonline'), checked: true, 'data-testid': 't-online' });
  const registration = h('input', { type: 'checkbox', id: id('treg'), checked: true, 'data-testid': 't-registration' });
  // Art. 11.3: unticked (FIDE's default), the players' chat room is closed while they play.
  const playersChat = h('input', { type: 'checkbox', id: id('tchat'), 'data-testid': 't-players-chat' });
  const late = h(
    'select',
    { id: id('tlate'), 'data-testid': 't-late' },
    h('option', { value: 'none' }, w.lateEntryNone),
    h('option', { value: 'until', selected: true }, w.lateEntryUntil),
  );
  const lateRound = h('input', { type: 'number', id: id('tlater'), min: 1, max: 50, value: 2, inputmode: 'numeric', 'data-testid': 't-late-round' });
  const lateRoundField = field(w.lateEntryRound, lateRound);
  late.addEventListener('change', () => (lateRoundField.hidden = late.value !== 'until'));
  const lateField = h('div', { class: 'row wrap' }, field(w.lateEntry, late), lateRoundField);

  // Empty: the server's default (the lesser of 5 minutes and the base time).
  const defaultTime = h('input', { type: 'number', id: id('tdef'), min: 0, max: 1440, step: 'any', inputmode: 'decimal', placeholder: '5', 'data-testid': 't-default-time' });
  const pauseName = id('tpause');
  const pauseModes = (['auto', 'manual'] as const).map((m) =>
    h(
      'label',
      { class: 'check' },
      h('input', { type: 'radio', name: pauseName, value: m, checked: m === 'auto', 'data-testid': `t-pause-${m}` }),
      h('span', {}, m === 'auto' ? w.pauseAuto : w.pauseManual),
    ),
  );
  const pause = h('input', { type: 'number', id: id('tpsec'), min: 0, max: 86400, value: 30, inputmode: 'numeric', 'data-testid': 't-pause' });
  const pauseField = field(w.pauseSeconds, pause);
  for (const m of pauseModes) m.addEventListener('change', () => (pauseField.hidden = pauseMode() !== 'auto'));
  const pauseMode = () => (root.querySelector(`input[name="${pauseName}"]:checked`) as HTMLInputElement | null)?.value ?? 'auto';

  const num = (v: string, testid: string) => h('input', { type: 'number', id: id('tsc'), value: v, min: 0, max: 100, step: 0.5, inputmode: 'decimal', dir: 'ltr', class: 'points', 'data-testid': testid });
  const win = num('1', 't-win');
  const draw = num('0.5', 't-draw');
  const loss = num('0', 't-loss');
  const bye = num('1', 't-bye');

  // Tie-breaks: an ordered list with up/down/remove, and a select to add one.
  let order = [...DEFAULT_TIEBREAKS];
  let tbTouched = false;
  const tbList = h('ol', { class: 'tiebreaks', 'data-testid': 't-tiebreaks' });
  const tbAdd = h('select', { id: id('tbadd'), 'data-testid': 't-tiebreak-add' });
  const tbRules = h(
    'select',
    { id: id('tbrules'), 'data-testid': 't-tiebreak-rules' },
    h('option', { value: '2026' }, w.rules2026),
    h('option', { value: '2024' }, w.rules2024),
  );
  const drawTiebreaks = () => {
    tbList.replaceChildren(
      ...order.map((tb, i) =>
        h(
          'li',
          { 'data-tb': tb },
          h('span', { class: 'tb-index muted' }, `${digits(String(i + 1))}.`),
          h('abbr', { class: 'tb-code', title: w.tb[tb] ?? tb, dir: 'ltr' }, tb),
          h('span', { class: 'muted tb-name' }, w.tb[tb] ?? ''),
          h(
            'span',
            { class: 'tb-actions' },
            h('button', { type: 'button', class: 'small', 'aria-label': `${w.moveUp} ${tb}`, disabled: i === 0, onclick: () => move(i, -1) }, '↑'),
            h('button', { type: 'button', class: 'small', 'aria-label': `${w.moveDown} ${tb}`, disabled: i === order.length - 1, onclick: () => move(i, 1) }, '↓'),
            h('button', { type: 'button', class: 'small danger', 'aria-label': `${w.remove} ${tb}`, 'data-testid': `t-tb-remove-${tb}`, onclick: () => ((tbTouched = true), (order = order.filter((x) => x !== tb)), drawTiebreaks()) }, '✕'),
          ),
        ),
      ),
    );
    tbAdd.replaceChildren(
      h('option', { value: '' }, `+ ${w.addTiebreak}`),
      ...TIEBREAKS.filter((x) => !order.includes(x)).map((x) => h('option', { value: x }, `${x} — ${w.tb[x] ?? ''}`)),
    );
  };
  const move = (i: number, by: number) => {
    tbTouched = true;
    const j = i + by;
    [order[i], order[j]] = [order[j], order[i]];
    drawTiebreaks();
  };
  tbAdd.addEventListener('change', () => {
    if (tbAdd.value) order.push(tbAdd.value);
    tbTouched = true;
    drawTiebreaks();
  });
  drawTiebreaks();

  const errorBox = h('p', { class: 'error', role: 'alert', hidden: true, 'data-testid': 't-error' });
  const submit = h('button', { type: 'submit', class: 'primary', 'data-testid': 't-create' }, w.create);
  const form = h(
    'form',
    { class: 'card create tournament-create', 'aria-labelledby': 'tcreate-title', novalidate: true },
    h('h1', { id: 'tcreate-title', class: 'page-title' }, w.newTournament),
    h('div', { class: 'row wrap' }, h('label', { class: 'field grow', for: name.id }, h('span', {}, w.name), name)),
    h('fieldset', {}, h('legend', {}, w.system), h('div', { class: 'row wrap' }, field(w.system, system, undefined, { class: 'field sr-label' }), roundsField), roundsHelp),
    tc.el,
    h('label', { class: 'check', for: rated.id }, rated, h('span', {}, w.rated)),
    h('label', { class: 'check', for: online.id }, online, h('span', {}, w.online, h('small', { class: 'help block' }, w.onlineHelp))),
    h('label', { class: 'check', for: playersChat.id }, playersChat, h('span', {}, w.playersChat, h('small', { class: 'help block' }, w.playersChatHelp))),
    h('fieldset', {}, h('legend', {}, w.starts), field(w.startTime, start, w.startTimeHelp)),
    h(
      'fieldset',
      {},
      h('legend', {}, w.registration),
      h('label', { class: 'check', for: registration.id }, registration, h('span', {}, w.registrationOpen)),
      lateField,
    ),
    h(
      'details',
      { class: 'rules', 'data-testid': 't-more' },
      h('summary', {}, w.more),
      h('fieldset', {}, h('legend', {}, w.defaultTime), field(w.defaultTime, defaultTime, `${w.defaultTimeHelp} ${w.defaultTimeAuto}`, { class: 'field sr-label' })),
      h('fieldset', {}, h('legend', {}, w.betweenRounds), pauseModes, pauseField),
      h(
        'fieldset',
        {},
        h('legend', {}, w.scoring),
        h('div', { class: 'row wrap' }, field(w.scoringWin, win), field(w.scoringDraw, draw), field(w.scoringLoss, loss), field(w.byeValue, bye)),
      ),
      h(
        'fieldset',
        {},
        h('legend', {}, w.tiebreaks),
        tbList,
        h('div', { class: 'row wrap' }, h('label', { class: 'field tb-add', for: tbAdd.id }, h('span', { class: 'sr-only' }, w.addTiebreak), tbAdd), field(w.tiebreakRules, tbRules)),
      ),
    ),
    errorBox,
    submit,
  );

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    errorBox.hidden = true;
    const swiss = system.value === 'swiss';
    const req: CreateTournament = {
      name: name.value.trim(),
      system: system.value as CreateTournament['system'],
      time_control: tc.value(),
      rated: rated.checked,
      online: online.checked,
      starts_at: localInputToMs(start.value),
      registration_open: registration.checked,
      late_entry_until_round: swiss && late.value === 'until' ? Number(lateRound.value) || 0 : 0,
      tiebreaks: order,
      tiebreak_rules: tbRules.value as '2026' | '2024',
      pause_secs: pauseMode() === 'auto' ? Math.round(Number(pause.value) || 0) : null,
      scoring: { win: Number(win.value), draw: Number(draw.value), loss: Number(loss.value), bye: Number(bye.value) },
      players_chat: playersChat.checked,
    };
    if (swiss) req.rounds = Number(rounds.value) || 0;
    if (defaultTime.value.trim() !== '') req.default_time_secs = Math.round(Number(defaultTime.value) * 60);
    submit.disabled = true;
    try {
      const made = await tournamentsApi.create(req);
      navigate(tournamentPath(made.id));
    } catch (err) {
      errorBox.textContent = errorMessage(err);
      errorBox.hidden = false;
      submit.disabled = false;
    }
  });
  root.replaceChildren(h('div', { class: 'tournament-form-wrap' }, form));
  return () => {};
}
