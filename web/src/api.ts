// The server's HTTP and WebSocket API (issue 5). The server is the authority: the UI only
// displays what it says and sends what the player asked for.

import type { Player } from './players-api';

export type Seat = 'white' | 'black';
export type Status = 'waiting' | 'playing' | 'finished' | 'adjourned' | string;

export interface MoveRecord {
  uci: string;
  san: string;
  clock_ms?: number | null;
}

export interface Clocks {
  /** Null when untimed. */
  white_ms: number | null;
  black_ms: number | null;
}

export interface GameState {
  id: string;
  fen: string;
  initial_fen?: string | null;
  variant?: string;
  time_control?: string | null;
  /** The competition rules in force (arbiter-game `Rules`). */
  rules?: Record<string, unknown>;
  moves: MoveRecord[];
  clocks?: Clocks | null;
  turn: Seat;
  status: Status;
  result?: string | null;
  termination?: string | null;
  winner?: Seat | null;
  draw_offer?: Seat | null;
  /** Draws the side to move may claim now: `threefold_repetition`, `fifty_moves`. */
  claimable?: string[];
  seats?: { white: boolean; black: boolean };
  /** The seat the server plays ("play the computer"), null between people. */
  computer?: ComputerInfo | null;
  /** Number of the last event; the WebSocket continues after it. */
  last_seq?: number;
  rated?: boolean;
  /** The rating category; null for an untimed game. */
  speed?: string | null;
  /** The accounts holding the seats (null: anonymous). */
  players?: { white: Player | null; black: Player | null };
  /** The rematch game, once accepted. */
  rematch?: string | null;
  /** The seat whose rematch offer stands. */
  rematch_offer?: Seat | null;
  [key: string]: unknown;
}

/** A computer opponent: its seat, its level 1–8 (the built-in engine) or the configured name
 * of an external engine, its name (as in the PGN). */
export interface ComputerInfo {
  seat: Seat;
  level?: number | null;
  engine?: string | null;
  name?: string;
}

/** The computer opponents the server offers: `GET /api/engines`. */
export interface EnginesInfo {
  levels: number[];
  external: { name: string; id_name: string }[];
}

export interface GameSummary {
  id: string;
  time_control?: string | null;
  variant?: string;
  status: Status;
  /** The seat still open, for a waiting game. */
  open_seat?: Seat | null;
  computer?: ComputerInfo | null;
  moves?: number;
  rated?: boolean;
  /** The waiting player's username, null when anonymous. */
  creator?: string | null;
  [key: string]: unknown;
}

export interface SeatGrant {
  id?: string;
  seat: Seat;
  token: string;
}

export class ApiError extends Error {
  constructor(
    public status: number,
    public code: string,
    message: string,
    /** Seconds from a 429's `Retry-After`. */
    public retryAfter: number | null = null,
  ) {
    super(message);
  }
}

export async function call<T>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers['Authorization'] = `Bearer ${token}`;
  const res = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: 'no-store',
  });
  const text = await res.text();
  let data: unknown = undefined;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (!res.ok) {
    const err = (data ?? {}) as { error?: string; message?: string; code?: string };
    const retry = Number(res.headers.get('Retry-After'));
    const after = Number.isFinite(retry) && retry > 0 ? retry : null;
    // lichess's shape (the lichess-compatible routes): `{"error": text, "code": code}`.
    if (typeof err.code === 'string') throw new ApiError(res.status, err.code, err.message ?? err.error ?? text, after);
    throw new ApiError(res.status, err.error ?? `http_${res.status}`, err.message ?? text ?? res.statusText, after);
  }
  return data as T;
}

/** What the create form sends: `POST /api/games`. */
export interface CreateRequest {
  time_control: string;
  variant: 'standard' | 'chess960';
  chess960_position?: number;
  fen?: string;
  color: 'white' | 'black' | 'random';
  rules?: Record<string, unknown>;
  /** Play the computer at this level (1–8), or an external engine the server offers: the
   * game starts at once. */
  computer?: { level: number } | { engine: string };
  /** A rated game (an account and a timed control are needed). */
  rated?: boolean;
}

export const api = {
  create: (req: CreateRequest) => call<SeatGrant & { id: string }>('POST', '/api/games', req),
  join: (id: string) => call<SeatGrant>('POST', `/api/games/${enc(id)}/join`, {}),
  game: (id: string, token?: string) => call<GameState>('GET', `/api/games/${enc(id)}`, undefined, token),
  list: () => call<unknown>('GET', '/api/games'),
  engines: () => call<EnginesInfo>('GET', '/api/engines'),
  /** `ply`: half-moves played before this one (a retry cannot play twice); `lagMs`: the
   * measured one-way network lag, which the server credits up to its allowance. */
  move: (id: string, token: string, move: string, opts: { offerDraw?: boolean; ply?: number; lagMs?: number } = {}) =>
    call<unknown>(
      'POST',
      `/api/games/${enc(id)}/move`,
      {
        move,
        ...(opts.offerDraw ? { offer_draw: true } : {}),
        ...(opts.ply !== undefined ? { ply: opts.ply } : {}),
        ...(opts.lagMs !== undefined ? { lag_ms: Math.max(0, Math.round(opts.lagMs)) } : {}),
      },
      token,
    ),
  draw: (id: string, token: string, action: 'offer' | 'accept' | 'decline' | 'claim', move?: string) =>
    call<unknown>('POST', `/api/games/${enc(id)}/draw`, move ? { action, move } : { action }, token),
  resign: (id: string, token: string) => call<unknown>('POST', `/api/games/${enc(id)}/resign`, {}, token),
  abort: (id: string, token: string) => call<unknown>('POST', `/api/games/${enc(id)}/abort`, {}, token),
  pgnUrl: (id: string) => `/api/games/${enc(id)}/pgn`,
  /** Withdraws a game still waiting for an opponent. */
  withdraw: (id: string, token?: string) => call<unknown>('DELETE', `/api/games/${enc(id)}`, undefined, token),
  rematch: (id: string, token?: string) => call<{ status: string; game?: string }>('POST', `/api/games/${enc(id)}/rematch`, {}, token),
  declineRematch: (id: string, token?: string) => call<{ status: string }>('DELETE', `/api/games/${enc(id)}/rematch`, undefined, token),
};

function enc(id: string): string {
  return encodeURIComponent(id);
}

/** Splits `GET /api/games` into open games (to join) and running games (to watch), whatever
 * reasonable shape the server chose: `{open: [...], running: [...]}` or one list with `status`. */
export function splitLobby(data: unknown): { open: GameSummary[]; running: GameSummary[] } {
  const asList = (v: unknown): GameSummary[] => (Array.isArray(v) ? (v as GameSummary[]) : []);
  if (Array.isArray(data)) {
    const all = asList(data);
    return {
      open: all.filter((g) => g.status === 'waiting'),
      running: all.filter((g) => g.status === 'playing'),
    };
  }
  const o = (data ?? {}) as Record<string, unknown>;
  const open = asList(o.open ?? o.waiting ?? o.open_games);
  const running = asList(o.running ?? o.playing ?? o.running_games ?? o.live);
  if (!open.length && !running.length && Array.isArray(o.games)) return splitLobby(o.games);
  return { open, running };
}

/** A seat kept in the browser so that a reload keeps the player in the game. */
export const seats = {
  get(id: string): SeatGrant | null {
    try {
      const raw = localStorage.getItem(`arbiter.seat.${id}`);
      return raw ? (JSON.parse(raw) as SeatGrant) : null;
    } catch {
      return null;
    }
  },
  set(id: string, grant: SeatGrant): void {
    try {
      localStorage.setItem(`arbiter.seat.${id}`, JSON.stringify({ seat: grant.seat, token: grant.token }));
    } catch {
      /* private mode: the seat lasts as long as the page */
    }
  },
};

/** The live stream of a game (`{"type":"state","game":…}` then `{"type":"event","seq":n,…}`).
 * It reconnects by itself with `?since=N`, the last event number it saw, so that nothing is
 * missed. */
export class GameStream {
  private ws: WebSocket | null = null;
  private lastSeq = -1;
  private closed = false;
  private retry = 0;
  private timer: number | undefined;
  private pinger: number | undefined;
  private pingSentAt = 0;
  /** Round-trip times of the last pings, ms. */
  private rtts: number[] = [];

  constructor(
    private id: string,
    private onEvent: (ev: Record<string, unknown>) => void,
    private onStatus: (connected: boolean) => void,
  ) {
    this.open();
  }

  get seq(): number {
    return this.lastSeq;
  }

  /** Remembers an event number learnt elsewhere (e.g. the `seq` of a fetched state). */
  seen(seq: number | undefined): void {
    if (typeof seq === 'number' && seq > this.lastSeq) this.lastSeq = seq;
  }

  private open(): void {
    if (this.closed) return;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const since = this.lastSeq >= 0 ? `?since=${this.lastSeq}` : '';
    const ws = new WebSocket(`${proto}//${location.host}/api/games/${enc(this.id)}/ws${since}`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.onStatus(true);
      const ping = () => {
        if (ws.readyState !== WebSocket.OPEN) return;
        this.pingSentAt = performance.now();
        ws.send('{"type":"ping"}');
      };
      window.clearInterval(this.pinger);
      ping();
      this.pinger = window.setInterval(ping, 5000);
    };
    ws.onmessage = (msg) => {
      let ev: Record<string, unknown>;
      try {
        ev = JSON.parse(String(msg.data)) as Record<string, unknown>;
      } catch {
        return;
      }
      if (ev.type === 'pong') {
        if (this.pingSentAt) this.rtts = [...this.rtts.slice(-4), performance.now() - this.pingSentAt];
        this.pingSentAt = 0;
        return;
      }
      if (ev.type === 'event' && typeof ev.seq === 'number') this.seen(ev.seq);
      const game = ev.game as { last_seq?: number } | undefined;
      if (ev.type === 'state' && game) this.seen(game.last_seq);
      this.onEvent(ev);
    };
    ws.onclose = () => {
      this.ws = null;
      window.clearInterval(this.pinger);
      this.onStatus(false);
      if (this.closed) return;
      const delay = Math.min(5000, 250 * 2 ** this.retry++);
      this.timer = window.setTimeout(() => this.open(), delay);
    };
    ws.onerror = () => ws.close();
  }

  /** One-way lag estimate: half the smallest recent round trip (undefined before a ping). */
  lagMs(): number | undefined {
    return this.rtts.length ? Math.min(...this.rtts) / 2 : undefined;
  }

  close(): void {
    this.closed = true;
    window.clearInterval(this.pinger);
    window.clearTimeout(this.timer);
    this.ws?.close();
  }
}
