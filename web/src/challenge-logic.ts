// Challenges and chat without the page: lichess's challenge objects and event-stream events,
// the challenge form's request body, time-control text, the list of pending challenges kept up
// to date by the stream's events, and chat lines merged from a fetch and a stream.

export type ColorChoice = 'white' | 'black' | 'random';
export type VariantKey = 'standard' | 'chess960';

/** A user as a challenge names them (lichess's `challenger` / `destUser`). */
export interface ChallengeUser {
  id: string;
  name: string;
  rating?: number | null;
  title?: string | null;
  provisional?: boolean;
  online?: boolean;
}

export type ChallengeTimeControl =
  | { type: 'clock'; limit: number; increment: number; show?: string }
  | { type: 'correspondence'; daysPerTurn: number }
  | { type: 'unlimited' };

/** lichess's challenge object. */
export interface Challenge {
  id: string;
  url?: string;
  status?: string;
  challenger: ChallengeUser | null;
  destUser: ChallengeUser | null;
  variant?: { key: string; name?: string; short?: string };
  rated: boolean;
  speed?: string;
  timeControl: ChallengeTimeControl;
  /** The challenger's choice. */
  color: ColorChoice;
  /** The challenger's colour once drawn. */
  finalColor?: 'white' | 'black';
  direction?: 'in' | 'out';
  declineReason?: string;
  declineReasonKey?: string;
}

/** What the challenge form holds. */
export type ChallengeForm =
  | { kind: 'clock'; minutes: number; increment: number; color: ColorChoice; rated: boolean; variant: VariantKey }
  | { kind: 'correspondence'; days: number; color: ColorChoice; rated: boolean; variant: VariantKey };

/** The body of `POST /api/challenge/{username}`. */
export type ChallengeBody =
  | { 'clock.limit': number; 'clock.increment': number; color: ColorChoice; rated: boolean; variant: VariantKey }
  | { days: number; color: ColorChoice; rated: boolean; variant: VariantKey };

/** Presets of the form: minutes + increment seconds. */
export const CHALLENGE_PRESETS: readonly [number, number][] = [
  [1, 0],
  [3, 0],
  [3, 2],
  [5, 3],
  [10, 5],
  [15, 10],
  [30, 0],
];

/** The days per move a correspondence challenge may have (as on lichess). */
export const CORRESPONDENCE_DAYS = [1, 2, 3, 5, 7, 10, 14] as const;

export type FormError = 'zeroClock' | 'badMinutes' | 'badIncrement' | 'badDays';

/** The form's request body, or what is wrong with the form. Minutes may be fractions of
 * a minute (¼, ½, ¾, 1½); they are sent as whole seconds. */
export function challengeBody(f: ChallengeForm): { body: ChallengeBody } | { error: FormError } {
  const common = { color: f.color, rated: f.rated, variant: f.variant };
  if (f.kind === 'correspondence') {
    if (!Number.isInteger(f.days) || f.days < 1 || f.days > 14) return { error: 'badDays' };
    return { body: { days: f.days, ...common } };
  }
  if (!Number.isFinite(f.minutes) || f.minutes < 0 || f.minutes > 180) return { error: 'badMinutes' };
  if (!Number.isInteger(f.increment) || f.increment < 0 || f.increment > 180) return { error: 'badIncrement' };
  const limit = Math.round(f.minutes * 60);
  if (limit === 0 && f.increment === 0) return { error: 'zeroClock' };
  return { body: { 'clock.limit': limit, 'clock.increment': f.increment, ...common } };
}

const FRACTIONS: Record<number, string> = { 15: '¼', 30: '½', 45: '¾', 90: '1½' };

/** Minutes of a clock as lichess writes them: 5, ½, ¼, 1½, or 2.5 for odd seconds. */
export function minutesText(limitSeconds: number): string {
  if (FRACTIONS[limitSeconds]) return FRACTIONS[limitSeconds];
  const m = limitSeconds / 60;
  return Number.isInteger(m) ? String(m) : String(Math.round(m * 100) / 100);
}

export interface TcWords {
  /** `{n}` days per move, by plural category (`one`, `few`, `many`, `other`). */
  daysPerMove: Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };
  unlimited: string;
}

/** "5+3", "½+0", "3 days per move", "Unlimited" (digits as given: the caller localises them). */
export function timeControlText(tc: ChallengeTimeControl | null | undefined, words: TcWords, lang = 'en'): string {
  if (!tc || tc.type === 'unlimited') return words.unlimited;
  if (tc.type === 'correspondence') return plural(words.daysPerMove, tc.daysPerTurn, lang);
  return `${minutesText(tc.limit)}+${tc.increment}`;
}

/** A plural form for `n`, `{n}` filled in. */
export function plural(forms: TcWords['daysPerMove'], n: number, lang: string): string {
  let cat: Intl.LDMLPluralRule = 'other';
  try {
    cat = new Intl.PluralRules(lang).select(n);
  } catch {
    cat = n === 1 ? 'one' : 'other';
  }
  return (forms[cat] ?? forms.other).replace('{n}', String(n));
}

/** lichess's speed from a clock's estimated duration (limit + 40 × increment), as lichess
 * names them; `correspondence` for days, null when unlimited. */
export function speedOf(tc: ChallengeTimeControl): string | null {
  if (tc.type === 'correspondence') return 'correspondence';
  if (tc.type === 'unlimited') return null;
  const total = tc.limit + 40 * tc.increment;
  if (total < 30) return 'ultraBullet';
  if (total < 180) return 'bullet';
  if (total < 480) return 'blitz';
  if (total < 1500) return 'rapid';
  return 'classical';
}

const lower = (s: string | null | undefined) => (s ?? '').toLowerCase();

/** Whether the logged-in user sent this challenge. */
export function isOutgoing(c: Challenge, me: string | null | undefined): boolean {
  if (c.direction) return c.direction === 'out';
  return !!me && !!c.challenger && (lower(c.challenger.id) === lower(me) || lower(c.challenger.name) === lower(me));
}

/** The colour the challenged player gets: the other side of the challenger's (drawn) colour,
 * or null while it is still to be drawn by lot. */
export function destColor(c: Challenge): 'white' | 'black' | null {
  const ch = c.finalColor ?? (c.color === 'random' ? null : c.color);
  return ch === 'white' ? 'black' : ch === 'black' ? 'white' : null;
}

export interface ChallengeList {
  in: Challenge[];
  out: Challenge[];
  /** My challenges that were declined, until dismissed. */
  declined: Challenge[];
}

export const EMPTY_CHALLENGES: ChallengeList = { in: [], out: [], declined: [] };

const without = (list: Challenge[], id: string) => list.filter((c) => c.id !== id);
const upsert = (list: Challenge[], c: Challenge) => (list.some((x) => x.id === c.id) ? list.map((x) => (x.id === c.id ? c : x)) : [...list, c]);

function challengeOf(ev: Record<string, unknown>): Challenge | null {
  const c = ev.challenge as Challenge | undefined;
  return c && typeof c === 'object' && typeof c.id === 'string' ? c : null;
}

/** The id of the game an event-stream `gameStart` / `gameFinish` is about. */
export function gameIdOf(ev: Record<string, unknown>): string | null {
  const g = ev.game as { gameId?: unknown; id?: unknown } | undefined;
  if (!g || typeof g !== 'object') return null;
  const id = g.gameId ?? g.id;
  return typeof id === 'string' ? id : null;
}

/** The pending challenges after one event of `GET /api/stream/event`. */
export function applyStreamEvent(s: ChallengeList, ev: Record<string, unknown>, me: string | null | undefined): ChallengeList {
  switch (ev.type) {
    case 'challenge': {
      const c = challengeOf(ev);
      if (!c || (c.status && c.status !== 'created' && c.status !== 'offline')) return s;
      return isOutgoing(c, me) ? { ...s, out: upsert(s.out, c), declined: without(s.declined, c.id) } : { ...s, in: upsert(s.in, c) };
    }
    case 'challengeCanceled': {
      const c = challengeOf(ev);
      return c ? { ...s, in: without(s.in, c.id), out: without(s.out, c.id) } : s;
    }
    case 'challengeDeclined': {
      const c = challengeOf(ev);
      if (!c) return s;
      const mine = isOutgoing(c, me) || s.out.some((x) => x.id === c.id);
      return { in: without(s.in, c.id), out: without(s.out, c.id), declined: mine ? upsert(s.declined, c) : s.declined };
    }
    case 'gameStart': {
      const id = gameIdOf(ev);
      return id ? { ...s, in: without(s.in, id), out: without(s.out, id) } : s;
    }
    default:
      return s;
  }
}

/** The list after `GET /api/challenge` (declined notices are kept). */
export function withPending(s: ChallengeList, pending: { in?: Challenge[]; out?: Challenge[] }): ChallengeList {
  const ok = (l: Challenge[] | undefined) => (Array.isArray(l) ? l.filter((c) => c && typeof c.id === 'string') : []);
  const out = ok(pending.out);
  return { in: ok(pending.in), out, declined: s.declined.filter((c) => !out.some((o) => o.id === c.id)) };
}

/** The game to open for a `gameStart`: the game of a challenge this page sent and still
 * waits for (the game's id is the challenge's id), else null. */
export function gameToOpen(ev: Record<string, unknown>, waitingFor: ReadonlySet<string>): string | null {
  if (ev.type !== 'gameStart') return null;
  const id = gameIdOf(ev);
  return id && waitingFor.has(id) ? id : null;
}

// ---- Chat ----

export type ChatRoom = 'player' | 'spectator';

export interface ChatLine {
  username: string;
  text: string;
  at: number;
}

/** `GET /api/games/{id}/chat`. */
export interface ChatView {
  /** Null when the reader is not a player of the game. */
  player: ChatLine[] | null;
  spectator: ChatLine[];
  player_closed: boolean;
}

export const CHAT_MAX = 140;

/** Lines of a room, in time order, each once (a line can come both in a fetched view and on
 * the stream). */
export function mergeChat(a: ChatLine[], b: ChatLine[]): ChatLine[] {
  const seen = new Set<string>();
  const out: ChatLine[] = [];
  for (const l of [...a, ...b]) {
    const k = `${l.at}\u0000${l.username}\u0000${l.text}`;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(l);
  }
  return out.sort((x, y) => x.at - y.at);
}

/** A chat-stream object as a line of a room, or null. */
export function chatLineOf(o: Record<string, unknown>): { room: ChatRoom; line: ChatLine } | null {
  if (o.type !== 'chatLine') return null;
  if (o.room !== 'player' && o.room !== 'spectator') return null;
  if (typeof o.username !== 'string' || typeof o.text !== 'string') return null;
  return { room: o.room, line: { username: o.username, text: o.text, at: typeof o.at === 'number' ? o.at : Date.now() } };
}

/** What may be sent: trimmed, not empty, at most 140 characters (code points). */
export function chatText(raw: string): string | null {
  const s = raw.trim();
  if (!s || [...s].length > CHAT_MAX) return null;
  return s;
}

/** The localStorage key of "hide chat", per user (anonymous visitors share one). */
export function chatHiddenKey(username: string | null | undefined): string {
  return `arbiter.chat.hidden.${lower(username)}`;
}
