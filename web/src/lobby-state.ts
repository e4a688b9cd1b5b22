// The lobby as the client knows it, rebuilt from the lobby WebSocket's messages. Pure: the
// socket and the page live elsewhere.

import type { Pool, Seek } from './players-api';

export interface LobbyState {
  /** Newest first, as the server lists them. */
  seeks: Seek[];
  pools: Pool[];
}

export const EMPTY_LOBBY: LobbyState = { seeks: [], pools: [] };

/** The state after one message: `lobby` replaces everything, `seek_added`/`seek_removed` edit
 * the seeks, `pools` replaces the pools; anything else (`game_started`, `pong`) changes nothing. */
export function applyLobbyMessage(s: LobbyState, msg: Record<string, unknown>): LobbyState {
  switch (msg.type) {
    case 'lobby':
      return {
        seeks: Array.isArray(msg.seeks) ? (msg.seeks as Seek[]) : [],
        pools: Array.isArray(msg.pools) ? (msg.pools as Pool[]) : s.pools,
      };
    case 'seek_added': {
      const seek = msg.seek as Seek | undefined;
      if (!seek || typeof seek.id !== 'string') return s;
      // A seek already known (a message repeated after a reconnection) is replaced, not doubled.
      return { ...s, seeks: [seek, ...s.seeks.filter((x) => x.id !== seek.id)] };
    }
    case 'seek_removed':
      return { ...s, seeks: s.seeks.filter((x) => x.id !== msg.id) };
    case 'pools':
      return Array.isArray(msg.pools) ? { ...s, pools: msg.pools as Pool[] } : s;
    default:
      return s;
  }
}

/** The game a `game_started` message sends this player to, if it is one. */
export function startedGame(msg: Record<string, unknown>): string | null {
  return msg.type === 'game_started' && typeof msg.game === 'string' ? msg.game : null;
}
