// Seeks: the open ones in a table (accept someone else's, cancel one's own) and the form that
// posts one. A game that starts from a seek arrives as the lobby socket's `game_started`.

import { h, id } from './dom';
import { t, pt, digits, colorName } from './i18n';
import { lobbyApi, type Seek, type SeekRequest } from './players-api';
import { currentUser } from './session';
import { errorMessage } from './errors';
import { ratingText, inRange, sameName } from './ratings';
import { nameLink, titleBadge } from './player-tag';
import { navigate } from './router';

export function seeksCard(): { el: HTMLElement; update: (seeks: Seek[]) => void } {
  const d = t();
  const p = pt();
  const me = currentUser();
  const errorBox = h('p', { class: 'error', role: 'alert', hidden: true });
  const showError = (err: unknown) => {
    errorBox.textContent = errorMessage(err);
    errorBox.hidden = false;
  };
  const body = h('tbody', {});
  const table = h(
    'table',
    { class: 'list seeks', 'data-testid': 'seeks' },
    // Colour and range are the columns a phone leaves out (class `opt`); the range column
    // shows only when some seek has one.
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ([[p.player], [p.rating], [d.timeControl], [p.colorCol, 'opt'], [p.range, 'opt range-col'], ['']] as const).map(([x, c]) => h('th', { scope: 'col', class: c ?? null }, x)),
      ),
    ),
    body,
  );
  const empty = h('p', { class: 'muted', 'data-testid': 'no-seeks' }, p.noSeeks);

  function seekRow(s: Seek): HTMLElement {
    // Read now: the ratings are refreshed after the page was drawn.
    const me = currentUser();
    const mine = !!me && sameName(me.username, s.username);
    const myRating = me?.ratings[s.speed]?.rating;
    const fits = inRange(myRating, s.rating_min, s.rating_max);
    const range = s.rating_min === null && s.rating_max === null ? '' : `${s.rating_min ?? ''}–${s.rating_max ?? ''}`;
    let action: HTMLElement;
    if (mine)
      action = h(
        'button',
        { type: 'button', class: 'small', 'data-testid': `cancel-seek-${s.id}`, onclick: () => lobbyApi.cancelSeek(s.id).catch(showError) },
        p.cancelSeek,
      );
    else
      action = h(
        'button',
        {
          type: 'button',
          class: 'small primary',
          'data-testid': `accept-seek-${s.id}`,
          disabled: !me || !fits,
          title: me && !fits ? p.outOfRange : null,
          onclick: async () => {
            try {
              const res = await lobbyApi.accept(s.id);
              navigate(`/game/${encodeURIComponent(res.game)}`);
            } catch (err) {
              showError(err);
            }
          },
        },
        d.accept,
      );
    return h(
      'tr',
      { 'data-seek': s.id, 'data-user': s.username, class: mine ? 'mine' : null },
      h('td', {}, titleBadge(s.title), nameLink(s.username)),
      h('td', { class: 'num' }, h('bdi', { dir: 'ltr' }, digits(ratingText(s.rating, s.provisional)))),
      // The clock, and under it rated or casual (and the variant when it is not standard).
      h(
        'td',
        { class: 'tc wrap' },
        h('bdi', { dir: 'ltr', class: 'seek-tc' }, digits(s.time_control)),
        h('br'),
        h('span', { class: 'seek-mode muted' }, [s.rated ? p.rated : p.casual, s.variant === 'chess960' ? d.chess960 : ''].filter(Boolean).join(' · ')),
      ),
      h('td', { class: 'opt' }, s.color === 'random' ? d.random : colorName(s.color)),
      h('td', { class: 'num opt range-col' }, h('bdi', { dir: 'ltr' }, digits(range))),
      h('td', {}, action),
    );
  }

  const el = h('section', { class: 'card seeks-card', 'aria-labelledby': 'seeks-title' }, h('h2', { id: 'seeks-title' }, p.seeks), h('p', { class: 'help' }, p.seeksHelp), errorBox, h('div', { class: 'table-scroll' }, table), empty);
  if (me) el.append(seekForm(() => (errorBox.hidden = true), showError));
  return {
    el,
    update: (seeks) => {
      body.replaceChildren(...seeks.map(seekRow));
      table.hidden = seeks.length === 0;
      table.classList.toggle('no-range', !seeks.some((s) => s.rating_min !== null || s.rating_max !== null));
      empty.hidden = seeks.length > 0;
    },
  };
}

/** "Create a seek": time control as text, variant, rated or casual, colour, rating range. */
function seekForm(onOk: () => void, onError: (err: unknown) => void): HTMLElement {
  const d = t();
  const p = pt();
  const tc = h('input', { type: 'text', id: id('stc'), value: '5+3', dir: 'ltr', required: true, spellcheck: 'false', 'data-testid': 'seek-tc', list: 'seek-tcs' });
  const tcs = h('datalist', { id: 'seek-tcs' }, ['1+0', '3+0', '3+2', '5+0', '5+3', '10+0', '10+5', '15+10', '30+0', '90+30', '1d/move'].map((x) => h('option', { value: x })));
  const variant = h('select', { id: id('sv'), 'data-testid': 'seek-variant' }, h('option', { value: 'standard' }, d.standard), h('option', { value: 'chess960' }, d.chess960));
  const rated = h('input', { type: 'checkbox', id: id('sr'), checked: true, 'data-testid': 'seek-rated' });
  const colorName_ = 'seek-color-' + id('c');
  const colors = (['white', 'random', 'black'] as const).map((c) =>
    h(
      'label',
      { class: `color-choice color-${c}` },
      h('input', { type: 'radio', name: colorName_, value: c, checked: c === 'random', 'data-testid': `seek-color-${c}` }),
      h('span', {}, c === 'random' ? d.random : colorName(c)),
    ),
  );
  const min = h('input', { type: 'number', id: id('smin'), min: 0, max: 4000, step: 50, inputmode: 'numeric', 'data-testid': 'seek-min' });
  const max = h('input', { type: 'number', id: id('smax'), min: 0, max: 4000, step: 50, inputmode: 'numeric', 'data-testid': 'seek-max' });
  const submit = h('button', { type: 'submit', class: 'primary', 'data-testid': 'post-seek' }, p.postSeek);
  const form = h(
    'form',
    { class: 'seek-form' },
    h(
      'div',
      { class: 'row wrap' },
      h('label', { class: 'field', for: tc.id }, h('span', {}, d.timeControl), tc, tcs),
      h('label', { class: 'field', for: variant.id }, h('span', {}, d.variant), variant),
      h('label', { class: 'check inline', for: rated.id }, rated, h('span', {}, p.rated)),
    ),
    h('fieldset', { class: 'colors' }, h('legend', {}, d.color), colors),
    h(
      'fieldset',
      { class: 'range' },
      h('legend', {}, p.ratingRange),
      h('label', { class: 'field', for: min.id }, h('span', {}, p.ratingMin), min),
      h('label', { class: 'field', for: max.id }, h('span', {}, p.ratingMax), max),
    ),
    submit,
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const color = (form.querySelector(`input[name="${colorName_}"]:checked`) as HTMLInputElement | null)?.value ?? 'random';
    const req: SeekRequest = {
      time_control: tc.value.trim(),
      variant: variant.value === 'chess960' ? 'chess960' : 'standard',
      rated: rated.checked,
      color: color as SeekRequest['color'],
    };
    if (min.value.trim() !== '') req.rating_min = Number(min.value);
    if (max.value.trim() !== '') req.rating_max = Number(max.value);
    submit.disabled = true;
    try {
      await lobbyApi.seek(req);
      onOk();
      box.open = false;
    } catch (err) {
      onError(err);
    } finally {
      submit.disabled = false;
    }
  });
  const box = h('details', { class: 'create-seek', 'data-testid': 'create-seek' }, h('summary', {}, p.createSeek), form);
  return box;
}
