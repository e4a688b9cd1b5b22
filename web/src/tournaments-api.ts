// Tournaments over HTTP (docs/tournaments-api.md). The session cookie says who asks; the server
// decides everything (pairings, results, standings) and the page shows what it says.

import { call } from './api';

/** Every tie-break the form offers, by its C.07 abbreviation. */
export const TIEBREAKS = ['PTS', 'BH', 'BH/C1', 'BH/C2', 'BH/M1', 'SB', 'DE', 'WIN', 'WON', 'BPG', 'BWG', 'GE', 'ARO', 'TPR', 'PTP', 'KS'];
/** What the form proposes: for a Swiss (C.07 §13's examples) and for a round robin. */
export const DEFAULT_TIEBREAKS = ['BH/C1', 'BH', 'SB', 'DE'];
export const RR_TIEBREAKS = ['DE', 'SB', 'WIN', 'KS'];

export type System = 'swiss' | 'round_robin' | 'double_round_robin';

/** `POST /api/tournaments`: only `name` and `time_control` are required. */
export interface CreateTournament {
  name: string;
  system: System;
  /** Swiss only (1–30). */
  rounds?: number;
  time_control: string;
  rated: boolean;
  /** False: an over-the-board event, results typed by the director. */
  online: boolean;
  /** Unix ms; null: the director starts it. */
  starts_at: number | null;
  registration_open: boolean;
  /** Swiss: registration stays open until round N is paired; 0: not after the start. */
  late_entry_until_round: number;
  tiebreaks: string[];
  tiebreak_rules: '2026' | '2024';
  /** Art. 6.7.1; absent: the server's default (the lesser of 5 min and the base time). */
  default_time_secs?: number;
  /** Null: the director pairs each round. */
  pause_secs: number | null;
  scoring: { win: number; draw: number; loss: number; bye: number };
  /** Art. 11.3: the players may chat while their game is played (default false: closed). */
  players_chat?: boolean;
}

export type TStatus = 'upcoming' | 'running' | 'finished';

export interface TournamentSummary {
  id: string;
  name: string;
  status: TStatus;
  system: System;
  /** Planned; null for a round robin before its start. */
  rounds: number | null;
  time_control: string;
  rated: boolean;
  online: boolean;
  starts_at: number | null;
  players: number;
  current_round: number;
  director: string;
}

export interface TPlayer {
  no: number;
  name: string;
  /** The account; null for a player the director entered by name. */
  username: string | null;
  rating: number | null;
  title: string | null;
  federation: string | null;
  fide_id?: number | null;
  withdrawn: boolean;
  points: number;
  byes?: { round: number; kind: string }[];
}

export interface TBoard {
  board: number;
  white: number;
  black: number;
  /** Null for a board without an online game. */
  game: string | null;
  /** `1-0`, `1/2-1/2`, `0-1`, `+/-`, `-/+`, `-/-`; null while being played. */
  result: string | null;
  termination: string | null;
}

export interface TBye {
  player: number;
  /** pairing_allocated | full | half | zero | free */
  kind: string;
}

export interface TRound {
  round: number;
  paired_at: number | null;
  complete: boolean;
  boards: TBoard[];
  byes: TBye[];
  explanation: string[] | string | null;
}

export interface TStandingRow {
  rank: number;
  no: number;
  name: string;
  points: number;
  tiebreaks: Record<string, number | null>;
}

export interface Standings {
  tiebreaks: string[];
  rows: TStandingRow[];
}

export interface Tournament {
  id: string;
  name: string;
  director: string;
  status: TStatus;
  settings: Partial<CreateTournament> & Record<string, unknown>;
  registration_open: boolean;
  paused: boolean;
  current_round: number;
  rounds_planned: number | null;
  next_round_at: number | null;
  round_deadline: number | null;
  players: TPlayer[];
  rounds: TRound[];
  standings: Standings;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  last_seq: number;
}

const enc = encodeURIComponent;
const base = (id: string) => `/api/tournaments/${enc(id)}`;

export const tournamentsApi = {
  list: () => call<unknown>('GET', '/api/tournaments'),
  create: (req: CreateTournament) => call<Tournament>('POST', '/api/tournaments', req),
  get: (id: string) => call<Tournament>('GET', base(id)),
  register: (id: string) => call<TPlayer>('POST', `${base(id)}/register`, {}),
  withdraw: (id: string) => call<TPlayer>('POST', `${base(id)}/withdraw`, {}),
  /** Checks in for the current round (Art. 6.7.1: arrival at the board). */
  present: (id: string) => call<void>('POST', `${base(id)}/present`, {}),
  wsPath: (id: string) => `${base(id)}/ws`,
  trfUrl: (id: string) => `${base(id)}/trf`,
  pgnUrl: (id: string) => `${base(id)}/pgn`,
  crosstableTxtUrl: (id: string) => `${base(id)}/crosstable.txt`,
  crosstableCsvUrl: (id: string) => `${base(id)}/crosstable.csv`,
  // The director's console: each answers the tournament after the action.
  start: (id: string) => call<Tournament>('POST', `${base(id)}/start`, {}),
  pairNext: (id: string) => call<Tournament>('POST', `${base(id)}/pair`, {}),
  pause: (id: string) => call<Tournament>('POST', `${base(id)}/pause`, {}),
  resume: (id: string) => call<Tournament>('POST', `${base(id)}/resume`, {}),
  setRegistration: (id: string, open: boolean) => call<Tournament>('POST', `${base(id)}/registration`, { open }),
  addPlayer: (id: string, p: { name: string; rating?: number; title?: string; federation?: string }) => call<TPlayer>('POST', `${base(id)}/players`, p),
  withdrawPlayer: (id: string, no: number) => call<Tournament>('POST', `${base(id)}/players/${no}/withdraw`, {}),
  readmitPlayer: (id: string, no: number) => call<Tournament>('POST', `${base(id)}/players/${no}/readmit`, {}),
  bye: (id: string, player: number, round: number, kind: 'half' | 'full' | 'zero') => call<Tournament>('POST', `${base(id)}/byes`, { player, round, kind }),
  forbid: (id: string, a: number, b: number) => call<Tournament>('POST', `${base(id)}/forbidden`, { players: [a, b] }),
  setResult: (id: string, round: number, board: number, result: string) =>
    call<Tournament>('POST', `${base(id)}/rounds/${round}/boards/${board}/result`, { result }),
  penalty: (id: string, round: number, board: number, body: { kind: 'add_time' | 'deduct_time' | 'declare_lost'; player: 'white' | 'black'; seconds?: number }) =>
    call<{ game: string; seq: number }>('POST', `${base(id)}/rounds/${round}/boards/${board}/penalty`, body),
};
