// Accounts, ratings, profiles and the lobby (docs/players-api.md). The session is a cookie the
// browser sends by itself; these calls never carry a token.

import { call, type Seat } from './api';

export interface Rating {
  rating: number;
  rd: number;
  games: number;
  provisional: boolean;
}

/** Every category is present: bullet, blitz, rapid, standard, correspondence, chess960. */
export type Ratings = Record<string, Rating>;

export interface Me {
  username: string;
  created_at: number;
  ratings: Ratings;
}

/** A seat held by an account (`GameView.players.white`). */
export interface Player {
  name: string;
  /** At the start of the game; null for a casual game. */
  rating: number | null;
  provisional: boolean;
  /** Null until a rated game ends. */
  rating_diff: number | null;
  closed: boolean;
  /** "BOT" for a bot account (lichess's titles), absent or null otherwise. */
  title?: string | null;
}

export interface Profile {
  username: string;
  created_at: number;
  closed: boolean;
  /** "BOT" for a bot account, absent or null otherwise. */
  title?: string | null;
  ratings: Ratings;
  count: { games: number; wins: number; draws: number; losses: number };
  playing: string[];
}

export interface GameListItem {
  id: string;
  created_at: number;
  time_control: string | null;
  variant: string;
  speed: string | null;
  rated: boolean;
  status: string;
  result: string | null;
  termination: string | null;
  players: { white: Player | null; black: Player | null };
  /** The opening of a finished game, if named. */
  opening?: { eco: string; name: string } | null;
}

export interface GamePage {
  page: number;
  per_page: number;
  total: number;
  games: GameListItem[];
}

export interface LeaderEntry {
  username: string;
  rating: number;
  rd: number;
  games: number;
}

export interface ApiToken {
  id: string;
  description: string;
  created_at: number;
  last_used_at: number | null;
}

export interface Seek {
  id: string;
  username: string;
  /** "BOT" for a bot account, if the server says. */
  title?: string | null;
  rating: number;
  provisional: boolean;
  time_control: string;
  variant: string;
  speed: string;
  rated: boolean;
  color: Seat | 'random';
  rating_min: number | null;
  rating_max: number | null;
  created_at: number;
}

export interface Pool {
  id: string;
  time_control: string;
  speed: string;
  waiting: number;
}

export interface SeekRequest {
  time_control: string;
  variant: 'standard' | 'chess960';
  rated: boolean;
  color: Seat | 'random';
  rating_min?: number;
  rating_max?: number;
}

const enc = encodeURIComponent;
const credentials = (username: string, password: string) => ({ username, password });

export const accounts = {
  signUp: (username: string, password: string) => call<Me>('POST', '/api/account', credentials(username, password)),
  logIn: (username: string, password: string) => call<Me>('POST', '/api/session', credentials(username, password)),
  logOut: () => call<void>('DELETE', '/api/session'),
  logOutEverywhere: () => call<void>('DELETE', '/api/sessions'),
  me: () => call<Me>('GET', '/api/account'),
  changePassword: (current: string, next: string) => call<void>('POST', '/api/account/password', { current, new: next }),
  close: (password: string) => call<void>('POST', '/api/account/close', { password }),
  createToken: (description: string) =>
    call<ApiToken & { token: string }>('POST', '/api/account/tokens', { description }),
  tokens: () => call<ApiToken[]>('GET', '/api/account/tokens'),
  revokeToken: (id: string) => call<void>('DELETE', `/api/account/tokens/${enc(id)}`),
};

export const users = {
  profile: (name: string) => call<Profile>('GET', `/api/users/${enc(name)}`),
  games: (name: string, q: { page: number; speed?: string; result?: string }) => {
    const p = new URLSearchParams({ page: String(q.page) });
    if (q.speed) p.set('speed', q.speed);
    if (q.result) p.set('result', q.result);
    return call<GamePage>('GET', `/api/users/${enc(name)}/games?${p}`);
  },
  pgnUrl: (name: string) => `/api/users/${enc(name)}/games.pgn`,
  leaderboard: (speed: string) => call<LeaderEntry[]>('GET', `/api/leaderboard/${enc(speed)}`),
};

export const lobbyApi = {
  seek: (req: SeekRequest) => call<Seek>('POST', '/api/seeks', req),
  cancelSeek: (id: string) => call<void>('DELETE', `/api/seeks/${enc(id)}`),
  accept: (id: string) => call<{ game: string }>('POST', `/api/seeks/${enc(id)}/accept`, {}),
  joinPool: (id: string) => call<{ pool: string }>('POST', `/api/pools/${enc(id)}/join`, {}),
  leavePool: () => call<void>('DELETE', '/api/pools'),
};
