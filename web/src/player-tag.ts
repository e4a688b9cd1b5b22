// A player as the lists and the game page show them: the name (a link to the profile), the
// rating ("1500?" while provisional), a "closed" marker, and after a rated game the change.

import { h } from './dom';
import { pt, digits } from './i18n';
import type { Player } from './players-api';
import { ratingText, diffText, diffTrend } from './ratings';
import { profilePath, spaLink } from './router';
import { ct } from './i18n-challenge';

/** A title before a name: "BOT" for a bot account (lichess's `title`), else nothing. */
export function titleBadge(title: string | null | undefined): HTMLElement | null {
  if (!title) return null;
  const bot = title.toUpperCase() === 'BOT';
  return h('span', { class: `title-badge${bot ? ' bot' : ''}`, dir: 'ltr', title: bot ? ct().botAccount : null, 'data-testid': 'title-badge' }, title);
}

export function nameLink(name: string, attrs: Record<string, string> = {}): HTMLAnchorElement {
  return spaLink(h('a', { href: profilePath(name), class: 'username', dir: 'ltr', ...attrs }, name));
}

export function playerTag(pl: Player | null, opts: { link?: boolean; diff?: boolean; anonymous?: string } = {}): HTMLElement {
  const p = pt();
  if (!pl) return h('span', { class: 'player-tag anonymous' }, opts.anonymous ?? p.anonymous);
  const rating = ratingText(pl.rating, pl.provisional);
  const showDiff = opts.diff && pl.rating_diff !== null && pl.rating_diff !== undefined;
  return h(
    'span',
    { class: 'player-tag' },
    titleBadge(pl.title),
    opts.link === false ? h('span', { class: 'username', dir: 'ltr' }, pl.name) : nameLink(pl.name),
    rating ? h('span', { class: 'rating', dir: 'ltr', 'data-testid': 'player-rating' }, digits(rating)) : null,
    showDiff ? h('span', { class: `diff ${diffTrend(pl.rating_diff)}`, dir: 'ltr', 'data-testid': 'rating-diff', title: p.ratingChange }, digits(diffText(pl.rating_diff))) : null,
    pl.closed ? h('span', { class: 'badge' }, p.closed) : null,
  );
}
