// How ratings are written: a provisional rating carries a "?" (RD ≥ 110 on the server), a
// change is signed ("+12", "−12" with a real minus sign). Pure: no DOM, no language.

import type { Player, GameListItem } from './players-api';
import type { Seat } from './api';

/** The rating categories, in the order they are shown. */
export const SPEEDS = ['bullet', 'blitz', 'rapid', 'standard', 'correspondence', 'chess960'] as const;
export type Speed = (typeof SPEEDS)[number];

/** `1500?` while provisional, `1500` once settled, '' when unknown (a casual game). */
export function ratingText(rating: number | null | undefined, provisional: boolean): string {
  if (rating === null || rating === undefined || !Number.isFinite(rating)) return '';
  return `${Math.round(rating)}${provisional ? '?' : ''}`;
}

/** `+12`, `−12`, `±0`; '' when there is no change to show. */
export function diffText(diff: number | null | undefined): string {
  if (diff === null || diff === undefined || !Number.isFinite(diff)) return '';
  const n = Math.round(diff);
  if (n > 0) return `+${n}`;
  if (n < 0) return `\u2212${-n}`;
  return '±0';
}

/** `up`, `down` or `same` for colouring a change. */
export function diffTrend(diff: number | null | undefined): 'up' | 'down' | 'same' {
  if (!diff) return 'same';
  return diff > 0 ? 'up' : 'down';
}

/** Usernames are unique without regard to case. */
export function sameName(a: string | null | undefined, b: string | null | undefined): boolean {
  return !!a && !!b && a.toLowerCase() === b.toLowerCase();
}

/** The seat an account holds in a game, if any. */
export function seatOf(players: { white: Player | null; black: Player | null } | undefined, username: string | null | undefined): Seat | null {
  if (!players || !username) return null;
  if (sameName(players.white?.name, username)) return 'white';
  if (sameName(players.black?.name, username)) return 'black';
  return null;
}

export type Outcome = 'win' | 'draw' | 'loss' | null;

/** A game of a profile's list as seen by that player: their colour, the opponent and how it went. */
export function fromSideOf(g: GameListItem, username: string): { seat: Seat; opponent: Player | null; me: Player | null; outcome: Outcome } {
  const seat: Seat = seatOf(g.players, username) ?? 'white';
  const other: Seat = seat === 'white' ? 'black' : 'white';
  const r = (g.result ?? '').replace(/\s/g, '');
  let outcome: Outcome = null;
  if (r === '1-0') outcome = seat === 'white' ? 'win' : 'loss';
  else if (r === '0-1') outcome = seat === 'black' ? 'win' : 'loss';
  else if (r.startsWith('1/2') || r.startsWith('½')) outcome = 'draw';
  return { seat, opponent: g.players?.[other] ?? null, me: g.players?.[seat] ?? null, outcome };
}

/** Whether a rating falls inside a seek's range (a bound left out is no bound). */
export function inRange(rating: number | null | undefined, min: number | null | undefined, max: number | null | undefined): boolean {
  if (rating === null || rating === undefined) return true;
  if (min !== null && min !== undefined && rating < min) return false;
  if (max !== null && max !== undefined && rating > max) return false;
  return true;
}

/** Number of pages for `total` items, at least one. */
export function pageCount(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, perPage)));
}
