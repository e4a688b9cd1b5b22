// The logged-in player's pending challenges, kept live for every page: `GET /api/challenge` at
// start and after every reconnection, then the events of `GET /api/stream/event`. A
// `gameStart` of a challenge this browser sent opens its game (the game's id is the
// challenge's id); a challenge accepted here opens it at once.

import { challengeApi, EVENT_STREAM_URL } from './challenge-api';
import { applyStreamEvent, gameToOpen, withPending, EMPTY_CHALLENGES, type Challenge, type ChallengeList } from './challenge-logic';
import { NdjsonStream } from './ndjson';
import { currentUser, onSessionChange } from './session';
import { currentRoute, navigate } from './router';

let list: ChallengeList = EMPTY_CHALLENGES;
let stream: NdjsonStream | null = null;
let streamUser: string | null = null;
/** Challenges sent from this browser and not yet answered. */
const waiting = new Set<string>();
const listeners = new Set<() => void>();

export function challenges(): ChallengeList {
  return list;
}

/** Called on every change of the list; returns the way to stop listening. */
export function onChallenges(f: () => void): () => void {
  listeners.add(f);
  return () => listeners.delete(f);
}

function set(next: ChallengeList): void {
  if (next === list) return;
  list = next;
  for (const f of [...listeners]) f();
}

async function reload(): Promise<void> {
  const me = streamUser;
  try {
    const pending = await challengeApi.pending();
    if (me === streamUser) set(withPending(list, pending));
  } catch {
    /* not there yet, or offline: the stream's events still come */
  }
}

function onEvent(ev: Record<string, unknown>): void {
  // My challenges still pending when the page loaded count too (sent before a reload).
  const mine = new Set([...waiting, ...list.out.map((c) => c.id)]);
  set(applyStreamEvent(list, ev, streamUser));
  const game = gameToOpen(ev, mine);
  if (game) {
    waiting.delete(game);
    const r = currentRoute();
    if (!(r.page === 'game' && r.id === game)) navigate(`/game/${encodeURIComponent(game)}`);
  }
}

/** Starts or stops the stream to follow who is logged in. */
function follow(): void {
  const me = currentUser()?.username ?? null;
  if (me === streamUser) return;
  stream?.close();
  stream = null;
  streamUser = me;
  waiting.clear();
  set(EMPTY_CHALLENGES);
  if (!me) return;
  stream = new NdjsonStream(EVENT_STREAM_URL, onEvent, (s) => {
    if (s.open) void reload();
  });
  void reload();
}

let started = false;
/** Once, at start (after the session is known). */
export function startChallenges(): void {
  if (started) return;
  started = true;
  onSessionChange(follow);
  follow();
}

/** A challenge just sent from this page: it is shown as waiting, and its game opens when
 * accepted. */
export function sent(c: Challenge): void {
  waiting.add(c.id);
  set({ ...list, out: [...list.out.filter((x) => x.id !== c.id), c], declined: list.declined.filter((x) => x.id !== c.id) });
}

export async function accept(c: Challenge): Promise<void> {
  await challengeApi.accept(c.id);
  set({ ...list, in: list.in.filter((x) => x.id !== c.id) });
  navigate(`/game/${encodeURIComponent(c.id)}`);
}

export async function decline(c: Challenge): Promise<void> {
  await challengeApi.decline(c.id);
  set({ ...list, in: list.in.filter((x) => x.id !== c.id) });
}

export async function cancel(c: Challenge): Promise<void> {
  await challengeApi.cancel(c.id);
  waiting.delete(c.id);
  set({ ...list, out: list.out.filter((x) => x.id !== c.id) });
}

export function dismissDeclined(id: string): void {
  set({ ...list, declined: list.declined.filter((x) => x.id !== id) });
}
