// The pure part of the tournament pages: results as people read them, the player's own game in
// a round, the crosstable from the rounds, the lists split by status. No DOM, no requests.

import type { TournamentSummary, TRound, TBoard } from './tournaments-api';

/** A `datetime-local` input's value (local time) as Unix ms; null when empty or invalid. */
export function localInputToMs(v: string): number | null {
  if (!v.trim()) return null;
  const ms = new Date(v).getTime();
  return Number.isFinite(ms) ? ms : null;
}

/** Art. 11.3: do the tournament's settings let the players chat while their game is played?
 * Only an explicit `players_chat: true` does (older tournaments have no such setting). */
export function playersChatOpen(settings: { players_chat?: unknown } | null | undefined): boolean {
  return settings?.players_chat === true;
}

/** A result as the pairings show it: `1–0`, `½–½`, `0–1`, forfeits `+ –`, `– +`, `– –`. */
export function resultText(r: string | null | undefined): string {
  if (!r) return '';
  const known: Record<string, string> = {
    '1-0': '1–0',
    '0-1': '0–1',
    '1/2-1/2': '½–½',
    '½-½': '½–½',
    '+/-': '+ –',
    '-/+': '– +',
    '-/-': '– –',
  };
  return known[r.replace(/\s/g, '')] ?? r;
}

/** Points with a half as `½` (`2.5` → `2½`, `0.5` → `½`); other values as they come. */
export function pointsText(v: string | number | null | undefined): string {
  if (v === null || v === undefined || v === '') return '';
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isFinite(n)) return String(v);
  const whole = Math.trunc(n);
  const frac = Math.abs(n - whole);
  if (Math.abs(frac - 0.5) < 1e-9) return `${whole === 0 ? (n < 0 ? '-' : '') : whole}½`;
  if (Number.isInteger(n)) return String(n);
  return String(Math.round(n * 100) / 100);
}

/** A tie-break value: points with ½, counts and ratings whole, others with at most 2 decimals. */
export function tiebreakText(code: string, v: string | number | null | undefined): string {
  // A tie-break that does not exist for this player (ARO without rated opponents).
  if (v === null || v === undefined || v === '') return '–';
  if (/^(PTS|BH|SB|KS)/.test(code)) return pointsText(v);
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isFinite(n)) return String(v);
  return Number.isInteger(n) ? String(n) : String(Math.round(n * 100) / 100);
}

/** The tournaments of `GET /api/tournaments` (`{"tournaments": [...]}`) split by status. */
export function splitTournaments(data: unknown): { upcoming: TournamentSummary[]; running: TournamentSummary[]; finished: TournamentSummary[] } {
  const o = (data ?? {}) as { tournaments?: unknown };
  const all = (Array.isArray(data) ? data : Array.isArray(o.tournaments) ? o.tournaments : []) as TournamentSummary[];
  return {
    upcoming: all.filter((x) => x.status === 'upcoming'),
    running: all.filter((x) => x.status === 'running'),
    finished: all.filter((x) => x.status === 'finished'),
  };
}

/** The board of `round` on which the player with this number plays, if any. */
export function boardOf(round: TRound | undefined, no: number | null): TBoard | null {
  if (!round || no === null) return null;
  return round.boards.find((b) => b.white === no || b.black === no) ?? null;
}

/** One cell of the crosstable: the opponent, the colour and the score of the row's player
 * (`1`, `½`, `0`, `+`, `−`, `*` while playing), or a bye's letter and score. */
export interface CrossCell {
  opponent: number | null;
  colour: 'w' | 'b' | null;
  score: string;
}

// A round robin's free round (the player meeting the dummy number) scores nothing and is no game.
const BYE_SCORE: Record<string, string> = { pairing_allocated: '1', full: '1', half: '½', zero: '0', free: '' };

/** The crosstable in the given players' order: for each player, one cell per round. */
export function crosstable(players: number[], rounds: TRound[]): Map<number, CrossCell[]> {
  const out = new Map<number, CrossCell[]>();
  for (const p of players) out.set(p, []);
  const put = (no: number, i: number, c: CrossCell) => {
    const cells = out.get(no);
    if (cells) cells[i] = c;
  };
  rounds.forEach((r, i) => {
    for (const b of r.boards) {
      const [ws, bs] = scoresOf(b.result);
      put(b.white, i, { opponent: b.black, colour: 'w', score: ws });
      put(b.black, i, { opponent: b.white, colour: 'b', score: bs });
    }
    for (const b of r.byes) put(b.player, i, { opponent: null, colour: null, score: BYE_SCORE[b.kind] ?? '' });
  });
  // Rounds a player had nothing in (entered late, withdrawn): empty cells.
  for (const cells of out.values()) for (let i = 0; i < rounds.length; i++) cells[i] ??= { opponent: null, colour: null, score: '' };
  return out;
}

/** The score of each side of a result, as the crosstable writes it (`*` while playing). */
export function scoresOf(result: string | null | undefined): [string, string] {
  switch ((result ?? '').replace(/\s/g, '')) {
    case '1-0':
      return ['1', '0'];
    case '0-1':
      return ['0', '1'];
    case '1/2-1/2':
      return ['½', '½'];
    case '+/-':
      return ['+', '−'];
    case '-/+':
      return ['−', '+'];
    case '-/-':
      return ['−', '−'];
    default:
      return ['*', '*'];
  }
}

/** The number of the account's player in this tournament, or null. */
export function myNo(t: { players: { no: number; username: string | null }[] }, username: string | null | undefined): number | null {
  if (!username) return null;
  const u = username.toLowerCase();
  return t.players.find((p) => p.username?.toLowerCase() === u)?.no ?? null;
}

/** The game of this player that `next` has and `prev` had not (a round just paired), still
 * without a result; null otherwise. */
export function newGameFor(prev: { rounds: TRound[] }, next: { rounds: TRound[] }, me: number | null): string | null {
  if (me === null) return null;
  const known = new Set<string>();
  for (const r of prev.rounds) for (const b of r.boards) if (b.game) known.add(b.game);
  for (const r of next.rounds) {
    const b = boardOf(r, me);
    if (b?.game && !b.result && !known.has(b.game)) return b.game;
  }
  return null;
}

/** A round's explanation as lines (the server sends a list; older forms a text). */
export function explanationLines(e: string[] | string | null | undefined): string[] {
  if (!e) return [];
  return (Array.isArray(e) ? e : e.split('\n')).filter((l) => l.trim() !== '');
}

/** The tournament a game belongs to, from its view (`tournament`: an id, or an object with
 * `id`, and perhaps `name`, `round` and `board`); null for a game outside any tournament. */
export function tournamentRef(game: Record<string, unknown> | null | undefined): { id: string; name: string | null; round: number | null } | null {
  const t = game?.tournament ?? game?.tournament_id;
  if (typeof t === 'string' && t) return { id: t, name: null, round: typeof game?.round === 'number' ? game.round : null };
  if (t && typeof t === 'object' && typeof (t as { id?: unknown }).id === 'string') {
    const o = t as { id: string; name?: unknown; round?: unknown };
    return { id: o.id, name: typeof o.name === 'string' ? o.name : null, round: typeof o.round === 'number' ? o.round : null };
  }
  return null;
}
