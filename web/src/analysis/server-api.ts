// The server's side of the analysis board: the game, its computer analysis (issue 17 contract)
// and opening names.

import { call, ApiError } from '../api';
import type { Score } from './score';
import type { Mark } from './graph';

export interface MoveRef {
  uci: string;
  san: string;
}

export interface AnalysedPosition {
  ply: number;
  eval: Score;
  best: MoveRef | null;
  pv: string[];
  depth: number;
}

export interface AnalysedMove {
  ply: number;
  san: string;
  uci: string;
  loss: number | null;
  win_loss: number | null;
  mark: Mark | null;
  better: MoveRef | null;
}

export interface PlayerSummary {
  acpl: number;
  inaccuracies: number;
  mistakes: number;
  blunders: number;
  accuracy: number;
}

export interface ComputerAnalysis {
  state: 'queued' | 'running' | 'done' | 'failed';
  engine: string;
  /** The search limit of each position: a depth, or a node budget (either may be absent). */
  depth?: number | null;
  nodes?: number | null;
  progress: { done: number; total: number };
  queue_position?: number | null;
  error?: string | null;
  positions: AnalysedPosition[];
  moves: AnalysedMove[];
  summary: { white: PlayerSummary; black: PlayerSummary } | null;
}

export interface Opening {
  eco: string;
  name: string;
}

const enc = encodeURIComponent;

/** The analysis of a game, or null when none was ever requested (404). */
export async function fetchAnalysis(id: string): Promise<ComputerAnalysis | null> {
  try {
    return await call<ComputerAnalysis>('GET', `/api/games/${enc(id)}/analysis`);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
}

export function requestAnalysis(id: string): Promise<ComputerAnalysis> {
  return call<ComputerAnalysis>('POST', `/api/games/${enc(id)}/analysis`, {});
}

export function evalsPgnUrl(id: string): string {
  return `/api/games/${enc(id)}/pgn?evals=true`;
}

const openings = new Map<string, Promise<Opening | null>>();

/** The opening named for a position (by its first four FEN fields), cached; null when the
 * position has no name or the server cannot say (an error is not cached). */
export function openingOf(fen: string): Promise<Opening | null> {
  const key = fen.split(' ').slice(0, 4).join(' ');
  let p = openings.get(key);
  if (!p) {
    p = call<Opening | null>('GET', `/api/openings?fen=${enc(fen)}`)
      .then((o) => (o && typeof o.name === 'string' ? o : null))
      .catch((e) => {
        // A 4xx answer stays (no name, or no such endpoint on this server); others are retried.
        if (!(e instanceof ApiError && e.status >= 400 && e.status < 500)) openings.delete(key);
        return null;
      });
    openings.set(key, p);
  }
  return p;
}
