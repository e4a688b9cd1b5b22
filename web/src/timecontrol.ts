// Time controls: the presets of issue 6 and a form for every kind arbiter-game reads, written in
// the server's human form (bare number = minutes; units s m h d).

import { h, id } from './dom';
import { t, digits } from './i18n';

export const PRESETS = ['1+0', '3+2', '5+3', '10+5', '15+10', '30+0', '90/40+30, 30+30'];

type Kind = 'increment' | 'bronstein' | 'simpleDelay' | 'periods' | 'perMove' | 'correspondence' | 'hourglass' | 'untimed';

const KINDS: Kind[] = ['increment', 'bronstein', 'simpleDelay', 'periods', 'perMove', 'correspondence', 'hourglass', 'untimed'];

function kindLabel(k: Kind): string {
  const d = t();
  return {
    increment: d.kindIncrement,
    bronstein: d.kindBronstein,
    simpleDelay: d.kindSimpleDelay,
    periods: d.kindPeriods,
    perMove: d.kindPerMove,
    correspondence: d.kindCorrespondence,
    hourglass: d.kindHourglass,
    untimed: d.kindUntimed,
  }[k];
}

/** A base time from minutes and seconds: "5", or "45s" when seconds are given. */
export function duration(minutes: number, seconds: number): string {
  const m = Math.max(0, Math.floor(minutes || 0));
  const s = Math.max(0, Math.floor(seconds || 0));
  if (s === 0) return String(m);
  return `${m * 60 + s}s`;
}

export interface Period {
  minutes: number;
  moves: number | null;
  increment: number;
}

export interface TcFields {
  kind: Kind;
  minutes: number;
  seconds: number;
  increment: number;
  delay: number;
  perMoveSeconds: number;
  days: number;
  periods: Period[];
}

/** The time control in the server's text form. */
export function build(f: TcFields): string {
  const base = duration(f.minutes, f.seconds);
  switch (f.kind) {
    case 'increment':
      return `${base}+${Math.max(0, f.increment | 0)}`;
    case 'bronstein':
      return `${base} d${Math.max(0, f.delay | 0)}`;
    case 'simpleDelay':
      return `${base} sd${Math.max(0, f.delay | 0)}`;
    case 'periods':
      return f.periods
        .map((p) => (p.moves ? `${p.minutes | 0}/${p.moves | 0}+${p.increment | 0}` : `${p.minutes | 0}+${p.increment | 0}`))
        .join(', ');
    case 'perMove':
      return `${Math.max(1, f.perMoveSeconds | 0)}s/move`;
    case 'correspondence':
      return `${Math.max(1, f.days | 0)}d/move`;
    case 'hourglass':
      return `hourglass ${base}`;
    case 'untimed':
      return 'untimed';
  }
}

/** The time control picker: presets as buttons, a custom form, and the text it makes. */
export function timeControlPicker(initial: string): { el: HTMLElement; value: () => string } {
  const d = t();
  const f: TcFields = {
    kind: 'increment',
    minutes: 5,
    seconds: 0,
    increment: 3,
    delay: 3,
    perMoveSeconds: 30,
    days: 3,
    periods: [
      { minutes: 90, moves: 40, increment: 30 },
      { minutes: 30, moves: null, increment: 30 },
    ],
  };
  const text = h('input', { type: 'text', id: id('tc'), value: initial, spellcheck: 'false', autocomplete: 'off', dir: 'ltr', 'data-testid': 'tc-text' });
  const presetButtons = PRESETS.map((p) =>
    h(
      'button',
      { type: 'button', class: 'preset', dir: 'ltr', 'data-tc': p, 'aria-pressed': String(p === initial), onclick: () => choose(p) },
      digits(p.replace(', ', ' · ')),
    ),
  );
  const choose = (p: string) => {
    text.value = p;
    for (const b of presetButtons) b.setAttribute('aria-pressed', String(b.dataset.tc === p));
  };
  text.addEventListener('input', () => {
    for (const b of presetButtons) b.setAttribute('aria-pressed', String(b.dataset.tc === text.value.trim()));
  });

  const custom = h('div', { class: 'custom-fields' });
  const kindSel = h(
    'select',
    { id: id('kind'), 'data-testid': 'tc-kind' },
    KINDS.map((k) => h('option', { value: k }, kindLabel(k))),
  );
  const update = () => {
    choose(build(f));
  };
  const num = (label: string, get: () => number, set: (v: number) => void, min = 0, max = 100000) => {
    const inputId = id('n');
    const input = h('input', { type: 'number', id: inputId, min, max, value: get(), inputmode: 'numeric' });
    input.addEventListener('input', () => {
      set(Number(input.value));
      update();
    });
    return h('label', { class: 'field', for: inputId }, h('span', {}, label), input);
  };
  const renderCustom = () => {
    custom.replaceChildren();
    const base = [num(d.minutes, () => f.minutes, (v) => (f.minutes = v)), num(d.seconds, () => f.seconds, (v) => (f.seconds = v), 0, 59)];
    switch (f.kind) {
      case 'increment':
        custom.append(...base, num(d.incrementSeconds, () => f.increment, (v) => (f.increment = v)));
        break;
      case 'bronstein':
      case 'simpleDelay':
        custom.append(...base, num(d.delaySeconds, () => f.delay, (v) => (f.delay = v)));
        break;
      case 'hourglass':
        custom.append(...base);
        break;
      case 'perMove':
        custom.append(num(d.seconds, () => f.perMoveSeconds, (v) => (f.perMoveSeconds = v), 1));
        break;
      case 'correspondence':
        custom.append(num(d.days, () => f.days, (v) => (f.days = v), 1, 60));
        break;
      case 'periods': {
        f.periods.forEach((p, i) => {
          const last = i === f.periods.length - 1;
          const row = h(
            'fieldset',
            { class: 'period' },
            h('legend', {}, `${d.period} ${digits(String(i + 1))}`),
            num(d.minutes, () => p.minutes, (v) => (p.minutes = v), 1),
            last
              ? h('span', { class: 'rest' }, d.restOfGame)
              : num(d.moves, () => p.moves ?? 40, (v) => (p.moves = v), 1),
            num(d.incrementSeconds, () => p.increment, (v) => (p.increment = v)),
            f.periods.length > 1
              ? h(
                  'button',
                  {
                    type: 'button',
                    class: 'small',
                    onclick: () => {
                      f.periods.splice(i, 1);
                      f.periods[f.periods.length - 1].moves = null;
                      renderCustom();
                      update();
                    },
                  },
                  d.removePeriod,
                )
              : null,
          );
          custom.append(row);
        });
        custom.append(
          h(
            'button',
            {
              type: 'button',
              class: 'small',
              onclick: () => {
                f.periods[f.periods.length - 1].moves = f.periods[f.periods.length - 1].moves ?? 40;
                f.periods.push({ minutes: 30, moves: null, increment: 30 });
                renderCustom();
                update();
              },
            },
            d.addPeriod,
          ),
        );
        break;
      }
      case 'untimed':
        break;
    }
  };
  kindSel.addEventListener('change', () => {
    f.kind = kindSel.value as Kind;
    renderCustom();
    update();
  });
  renderCustom();
  const details = h(
    'details',
    { class: 'custom' },
    h('summary', {}, d.custom),
    h('label', { class: 'field' }, h('span', {}, d.kind), kindSel),
    custom,
  );
  details.addEventListener('toggle', () => {
    if (details.open) update();
  });
  const el = h(
    'fieldset',
    { class: 'tc' },
    h('legend', {}, d.timeControl),
    h('div', { class: 'presets', role: 'group', 'aria-label': d.presets }, presetButtons),
    details,
    h('label', { class: 'field wide', for: text.id }, h('span', {}, d.typedTimeControl), text),
  );
  return { el, value: () => text.value.trim() };
}

/** Clock figures for display: h:mm:ss, m:ss, tenths under ten seconds, days for
 * correspondence. */
export function formatClock(ms: number): string {
  const neg = ms < 0;
  const v = Math.max(0, ms);
  const totalS = Math.floor(v / 1000);
  const days = Math.floor(totalS / 86400);
  const hours = Math.floor((totalS % 86400) / 3600);
  const mins = Math.floor((totalS % 3600) / 60);
  const secs = totalS % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  let s: string;
  if (days > 0) s = `${days}${t().days_} ${hours}:${pad(mins)}`;
  else if (hours > 0) s = `${hours}:${pad(mins)}:${pad(secs)}`;
  else if (v < 10000) s = `${mins}:${pad(secs)}.${Math.floor((v % 1000) / 100)}`;
  else s = `${mins}:${pad(secs)}`;
  return digits(neg ? `0:00.0` : s);
}

/** The simple delay of a time control in the human form (`5 sd3`), ms; 0 if none. */
export function simpleDelayMs(tc: string | null | undefined): number {
  const m = /\bsd(\d+(?:\.\d+)?)([smhd]?)/.exec(tc ?? '');
  if (!m) return 0;
  const unit: Record<string, number> = { '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  return Number(m[1]) * unit[m[2]];
}
