// Challenges on the page: the "Challenge" button and form of another player's profile (then
// "Waiting for … to accept", or "… declined"), and the strip under the header that lists the
// challenges sent to me (Accept / Decline) and, away from their profile, my own waiting ones.

import { h, id } from './dom';
import { t, pt, fmt, digits, lang, colorName } from './i18n';
import { ct } from './i18n-challenge';
import { challengeApi } from './challenge-api';
import {
  challengeBody,
  destColor,
  speedOf,
  timeControlText,
  CHALLENGE_PRESETS,
  CORRESPONDENCE_DAYS,
  type Challenge,
  type ChallengeForm,
  type ChallengeUser,
  type ColorChoice,
} from './challenge-logic';
import { challenges, onChallenges, sent, accept, decline, cancel, dismissDeclined } from './challenges';
import { currentRoute } from './router';
import { currentUser } from './session';
import { sameName, ratingText } from './ratings';
import { nameLink, titleBadge } from './player-tag';
import { errorMessage } from './errors';
import { loadPrefs, sound, announce } from './feedback';

/** "5+3 · Rated · Blitz · Chess960" of a challenge (digits in the page's language). */
export function challengeTerms(c: Challenge): string {
  const p = pt();
  const w = ct();
  const tcText = digits(timeControlText(c.timeControl, w.tc, lang()));
  const speed = c.speed ?? speedOf(c.timeControl);
  const speedName = speed === 'classical' ? p.speeds.standard : speed === 'ultraBullet' ? w.ultraBullet : speed ? (p.speeds[speed] ?? speed) : '';
  const variant = c.variant?.key === 'chess960' ? t().chess960 : '';
  return [tcText, c.rated ? p.rated : p.casual, speedName !== tcText ? speedName : '', variant].filter(Boolean).join(' · ');
}

/** A challenge's player: the BOT mark, the name (a link), the rating. */
function who(u: ChallengeUser | null): HTMLElement {
  if (!u) return h('span', {}, pt().anonymous);
  const rating = ratingText(u.rating, u.provisional ?? false);
  return h('span', { class: 'player-tag' }, titleBadge(u.title), nameLink(u.name), rating ? h('span', { class: 'rating', dir: 'ltr' }, digits(rating)) : null);
}

/** Splits "{name} challenges you" around the name, so that the name can be a link. */
function around(template: string, node: Node): (Node | string)[] {
  const [before, after] = template.split('{name}');
  return [before ?? '', node, after ?? ''];
}

// ---- The profile's challenge ----

/** The challenge box of another player's profile; `stop` ends its subscription. */
export function challengeBox(username: string): { el: HTMLElement; stop: () => void } {
  const w = ct();
  const d = t();
  const p = pt();
  const el = h('div', { class: 'challenge-box', 'data-testid': 'challenge-box' });
  const errorBox = h('p', { class: 'error', role: 'alert', hidden: true });
  const showError = (msg: string | null) => {
    errorBox.textContent = msg ?? '';
    errorBox.hidden = !msg;
  };

  // The form.
  let kind: 'clock' | 'correspondence' = 'clock';
  const minutes = h('input', { type: 'number', id: id('cmin'), min: 0, max: 180, step: 'any', value: 5, inputmode: 'decimal', dir: 'ltr', 'data-testid': 'challenge-minutes' });
  const increment = h('input', { type: 'number', id: id('cinc'), min: 0, max: 180, step: 1, value: 3, inputmode: 'numeric', dir: 'ltr', 'data-testid': 'challenge-increment' });
  const days = h(
    'select',
    { id: id('cdays'), 'data-testid': 'challenge-days' },
    CORRESPONDENCE_DAYS.map((n) => h('option', { value: n, selected: n === 3 }, digits(String(n)))),
  );
  const presetButtons = CHALLENGE_PRESETS.map(([m, i]) =>
    h(
      'button',
      {
        type: 'button',
        class: 'preset small',
        dir: 'ltr',
        'data-testid': `challenge-preset-${m}+${i}`,
        onclick: () => {
          kind = 'clock';
          minutes.value = String(m);
          increment.value = String(i);
          sync();
        },
      },
      digits(`${m}+${i}`),
    ),
  );
  const kindName = 'challenge-kind-' + id('k');
  const kindRadios = (['clock', 'correspondence'] as const).map((k) => {
    const r = h('input', { type: 'radio', name: kindName, value: k, checked: k === kind, 'data-testid': `challenge-kind-${k}` });
    r.addEventListener('change', () => {
      if (r.checked) kind = k;
      sync();
    });
    return h('label', { class: 'opponent-choice' }, r, h('span', {}, k === 'clock' ? w.realTime : w.correspondence));
  });
  const clockFields = h(
    'div',
    { class: 'row wrap' },
    h('div', { class: 'presets', role: 'group', 'aria-label': d.presets }, presetButtons),
    h('label', { class: 'field', for: minutes.id }, h('span', {}, w.minutesPerSide), minutes),
    h('label', { class: 'field', for: increment.id }, h('span', {}, d.incrementSeconds), increment),
  );
  const corrFields = h('div', { class: 'row wrap' }, h('label', { class: 'field', for: days.id }, h('span', {}, w.daysPerMoveLabel), days));
  const variant = h('select', { id: id('cvar'), 'data-testid': 'challenge-variant' }, h('option', { value: 'standard' }, d.standard), h('option', { value: 'chess960' }, d.chess960));
  const rated = h('input', { type: 'checkbox', id: id('crated'), checked: true, 'data-testid': 'challenge-rated' });
  const colorGroup = 'challenge-color-' + id('c');
  const colors = (['white', 'random', 'black'] as const).map((c) =>
    h(
      'label',
      { class: `color-choice color-${c}` },
      h('input', { type: 'radio', name: colorGroup, value: c, checked: c === 'random', 'data-testid': `challenge-color-${c}` }),
      h('span', {}, c === 'random' ? d.random : colorName(c)),
    ),
  );
  const submit = h('button', { type: 'submit', class: 'primary', 'data-testid': 'send-challenge' }, w.sendChallenge);
  const form = h(
    'form',
    { class: 'challenge-form', hidden: true, 'data-testid': 'challenge-form' },
    h('fieldset', {}, h('legend', {}, d.timeControl), h('div', { class: 'opponents' }, kindRadios), clockFields, corrFields),
    h(
      'div',
      { class: 'row wrap' },
      h('label', { class: 'field', for: variant.id }, h('span', {}, d.variant), variant),
      h('label', { class: 'check inline', for: rated.id }, rated, h('span', {}, p.rated)),
    ),
    h('fieldset', { class: 'colors' }, h('legend', {}, d.color), colors),
    h('div', { class: 'row wrap' }, submit, h('button', { type: 'button', onclick: () => close() }, d.cancel)),
  );
  const open = h('button', { type: 'button', class: 'primary', 'data-testid': 'challenge-button', 'aria-expanded': 'false', onclick: () => toggle() }, `⚔ ${w.challenge}`);

  function sync(): void {
    clockFields.hidden = kind !== 'clock';
    corrFields.hidden = kind !== 'correspondence';
    for (const r of form.querySelectorAll<HTMLInputElement>(`input[name="${kindName}"]`)) r.checked = r.value === kind;
    for (const [i, [m, inc]] of CHALLENGE_PRESETS.entries()) presetButtons[i].setAttribute('aria-pressed', String(Number(minutes.value) === m && Number(increment.value) === inc));
  }
  minutes.addEventListener('input', sync);
  increment.addEventListener('input', sync);
  sync();

  function toggle(): void {
    form.hidden = !form.hidden;
    open.setAttribute('aria-expanded', String(!form.hidden));
    if (!form.hidden) (form.querySelector('button.preset[aria-pressed=true]') as HTMLElement | null ?? minutes).focus();
  }
  function close(): void {
    form.hidden = true;
    open.setAttribute('aria-expanded', 'false');
    showError(null);
  }

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const color = ((form.querySelector(`input[name="${colorGroup}"]:checked`) as HTMLInputElement | null)?.value ?? 'random') as ColorChoice;
    const v = variant.value === 'chess960' ? 'chess960' : 'standard';
    const f: ChallengeForm =
      kind === 'clock'
        ? { kind, minutes: minutes.value.trim() === '' ? NaN : Number(minutes.value), increment: increment.value.trim() === '' ? 0 : Number(increment.value), color, rated: rated.checked, variant: v }
        : { kind, days: Number(days.value), color, rated: rated.checked, variant: v };
    const r = challengeBody(f);
    if ('error' in r) return showError(ct().formErrors[r.error]);
    submit.disabled = true;
    try {
      const c = await challengeApi.create(username, r.body);
      close();
      sent(c);
    } catch (err) {
      showError(errorMessage(err));
    } finally {
      submit.disabled = false;
    }
  });

  const status = h('div', { class: 'challenge-status', 'aria-live': 'polite' });
  function render(): void {
    const w2 = ct();
    const list = challenges();
    const out = list.out.find((c) => sameName(c.destUser?.name ?? c.destUser?.id ?? '', username));
    const declined = list.declined.find((c) => sameName(c.destUser?.name ?? c.destUser?.id ?? '', username));
    status.replaceChildren();
    if (out) {
      status.append(
        h(
          'div',
          { class: 'challenge-note waiting', 'data-testid': 'challenge-waiting', 'data-challenge': out.id },
          h('span', { class: 'spinner', 'aria-hidden': 'true' }),
          h('span', { class: 'grow' }, fmt(w2.waitingFor, { name: out.destUser?.name ?? username }), h('br'), h('span', { class: 'muted' }, challengeTerms(out))),
          h('button', { type: 'button', 'data-testid': 'cancel-challenge', onclick: () => cancel(out).catch((err) => showError(errorMessage(err))) }, t().cancel),
        ),
      );
    } else if (declined) {
      const name = declined.destUser?.name ?? username;
      status.append(
        h(
          'div',
          { class: 'challenge-note declined', role: 'status', 'data-testid': 'challenge-declined' },
          h('span', { class: 'grow' }, declined.declineReason ? fmt(w2.declinedWhy, { name, reason: declined.declineReason }) : fmt(w2.declined, { name })),
          h('button', { type: 'button', class: 'small', onclick: () => dismissDeclined(declined.id) }, w2.dismiss),
        ),
      );
    }
    // One challenge at a time to a player: the button comes back once it is answered.
    open.hidden = !!out;
    if (out) form.hidden = true;
  }
  render();
  const stop = onChallenges(render);
  el.append(open, form, errorBox, status);
  return { el, stop };
}

// ---- The strip under the header ----

const SHOWN = 3;
let strip: HTMLElement | null = null;
let knownIn = new Set<string>();

/** The strip of pending challenges (one element for the whole visit: the header is drawn
 * again with each page, the strip moves into the new one). */
export function challengeStrip(): HTMLElement {
  if (!strip) {
    strip = h('section', { class: 'challenge-strip', 'data-testid': 'challenges', hidden: true });
    onChallenges(renderStrip);
  }
  renderStrip();
  return strip;
}

function renderStrip(): void {
  if (!strip) return;
  const w = ct();
  const d = t();
  const list = challenges();
  const me = currentUser();
  const route = currentRoute();
  // My waiting challenge shows on its player's profile instead.
  const onProfileOf = (u: ChallengeUser | null) => route.page === 'profile' && !!u && sameName(route.name, u.name);
  const incoming = list.in;
  const outgoing = list.out.filter((c) => !onProfileOf(c.destUser));
  const declined = list.declined.filter((c) => !onProfileOf(c.destUser));
  // A new challenge to me is heard and announced.
  const fresh = incoming.filter((c) => !knownIn.has(c.id));
  knownIn = new Set(incoming.map((c) => c.id));
  if (fresh.length && me) {
    const prefs = loadPrefs();
    sound('notify', prefs);
    announce(fresh.map((c) => fmt(w.challengesYou, { name: c.challenger?.name ?? '' })).join('. '), prefs);
  }

  const items: HTMLElement[] = [];
  for (const c of incoming.slice(0, SHOWN)) {
    const mine = destColor(c);
    const colour = mine === 'white' ? w.youPlayWhite : mine === 'black' ? w.youPlayBlack : w.colourByLot;
    const err = h('span', { class: 'error', role: 'alert', hidden: true });
    const act = (f: () => Promise<void>) => () =>
      f().catch((e) => {
        err.textContent = errorMessage(e);
        err.hidden = false;
      });
    items.push(
      h(
        'li',
        { class: 'incoming', 'data-testid': 'incoming-challenge', 'data-challenge': c.id, 'data-from': c.challenger?.name ?? '' },
        h('span', { class: 'icon', 'aria-hidden': 'true' }, '⚔'),
        h(
          'span',
          { class: 'what' },
          h('span', { class: 'who' }, around(w.challengesYou, who(c.challenger))),
          h('span', { class: 'terms muted' }, `${challengeTerms(c)} · ${colour}`),
          err,
        ),
        h(
          'span',
          { class: 'actions' },
          h('button', { type: 'button', class: 'small primary', 'data-testid': 'accept-challenge', onclick: act(() => accept(c)) }, d.accept),
          h('button', { type: 'button', class: 'small', 'data-testid': 'decline-challenge', onclick: act(() => decline(c)) }, d.decline),
        ),
      ),
    );
  }
  if (incoming.length > SHOWN) items.push(h('li', { class: 'more muted' }, fmt(w.more, { n: digits(String(incoming.length - SHOWN)) })));
  for (const c of outgoing.slice(0, 2))
    items.push(
      h(
        'li',
        { class: 'outgoing', 'data-testid': 'outgoing-challenge', 'data-challenge': c.id },
        h('span', { class: 'spinner', 'aria-hidden': 'true' }),
        h('span', { class: 'what' }, h('span', {}, around(w.waitingFor, who(c.destUser))), h('span', { class: 'terms muted' }, challengeTerms(c))),
        h('span', { class: 'actions' }, h('button', { type: 'button', class: 'small', onclick: () => void cancel(c).catch(() => {}) }, d.cancel)),
      ),
    );
  for (const c of declined.slice(0, 2))
    items.push(
      h(
        'li',
        { class: 'declined', 'data-testid': 'declined-challenge' },
        h('span', { class: 'what' }, around(w.declined, who(c.destUser))),
        h('span', { class: 'actions' }, h('button', { type: 'button', class: 'small', 'aria-label': w.dismiss, title: w.dismiss, onclick: () => dismissDeclined(c.id) }, '✕')),
      ),
    );
  strip.hidden = items.length === 0 || !me;
  strip.setAttribute('aria-label', w.incomingTitle);
  strip.replaceChildren(h('ul', {}, items));
}
