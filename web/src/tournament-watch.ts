// A tournament followed live: its socket, the latest state from the server, and the player's own
// game opened by itself when a round starts. The watch outlives the tournament's page while its
// player is in a game (the next round's game opens from the last one's page too), and ends when
// another tournament is followed or the player leaves for another kind of page.

import { LobbySocket } from './lobby-socket';
import { tournamentsApi, type Tournament, type Standings } from './tournaments-api';
import { currentUser } from './session';
import { currentRoute, navigate } from './router';
import { myNo, newGameFor } from './tournament-logic';

type Listener = (t: Tournament) => void;

/** Each game opens by itself once per browser session: a player who goes back from their game
 * to the tournament's page is not sent to the game again. */
const openedKey = (game: string) => `arbiter.tgame.${game}`;
function alreadyOpened(game: string): boolean {
  try {
    return sessionStorage.getItem(openedKey(game)) !== null;
  } catch {
    return false;
  }
}
function markOpened(game: string): void {
  try {
    sessionStorage.setItem(openedKey(game), '1');
  } catch {
    /* private mode: once per page */
  }
}

export class Watch {
  state: Tournament | null = null;
  private socket: LobbySocket;
  private listeners = new Set<Listener>();
  private statusListeners = new Set<(connected: boolean) => void>();
  private noticeListeners = new Set<(message: string) => void>();
  private fetching = false;
  private again = false;
  private openedHere = new Set<string>();

  constructor(public id: string) {
    this.socket = new LobbySocket(
      (msg) => this.onMessage(msg),
      (connected) => {
        for (const f of this.statusListeners) f(connected);
      },
      () => tournamentsApi.wsPath(this.id),
    );
  }

  subscribe(f: Listener, onStatus?: (connected: boolean) => void, onNotice?: (message: string) => void): () => void {
    this.listeners.add(f);
    if (onStatus) this.statusListeners.add(onStatus);
    if (onNotice) this.noticeListeners.add(onNotice);
    if (this.state) f(this.state);
    return () => {
      this.listeners.delete(f);
      if (onStatus) this.statusListeners.delete(onStatus);
      if (onNotice) this.noticeListeners.delete(onNotice);
    };
  }

  private onMessage(msg: Record<string, unknown>): void {
    switch (msg.type) {
      case 'tournament':
        if (msg.tournament && typeof msg.tournament === 'object') this.apply(msg.tournament as Tournament);
        break;
      case 'your_game':
        if (typeof msg.game === 'string') this.open(msg.game);
        break;
      case 'notice':
        // An automatic step (the start, the next pairing) the server refused: the director decides.
        if (typeof msg.message === 'string') for (const f of this.noticeListeners) f(msg.message);
        break;
      case 'standings':
        if (this.state && msg.standings) this.apply({ ...this.state, standings: msg.standings as Standings });
        break;
      case 'event':
        // Any change: the whole state again (one request at a time).
        void this.refresh();
        break;
      default:
        break;
    }
  }

  /** Fetches the state (one request at a time; a change meanwhile asks for one more). */
  async refresh(): Promise<void> {
    if (this.fetching) {
      this.again = true;
      return;
    }
    this.fetching = true;
    try {
      do {
        this.again = false;
        try {
          this.apply(await tournamentsApi.get(this.id));
        } catch {
          /* the server is away: the socket's reconnection brings the state again */
        }
      } while (this.again);
    } finally {
      this.fetching = false;
    }
  }

  apply(next: Tournament): void {
    const prev = this.state;
    this.state = next;
    // A round paired since the last state with a game for this player (in case the socket's
    // own `your_game` was missed).
    const game = prev ? newGameFor(prev, next, myNo(next, currentUser()?.username)) : null;
    if (game) this.open(game);
    for (const f of this.listeners) f(next);
  }

  private open(game: string): void {
    if (this.openedHere.has(game) || alreadyOpened(game)) return;
    const route = currentRoute();
    // Only from this tournament's page or a game page: never away from anything else.
    if (!((route.page === 'tournament' && route.id === this.id) || route.page === 'game')) return;
    if (route.page === 'game' && route.id === game) return;
    this.openedHere.add(game);
    markOpened(game);
    // Arriving at the board (Art. 6.7.1): the check-in counts even before the first move.
    tournamentsApi.present(this.id).catch(() => {});
    navigate(`/game/${encodeURIComponent(game)}`);
  }

  close(): void {
    this.socket.close();
  }
}

let current: Watch | null = null;

/** The watch of a tournament (the same one while it is followed). */
export function watchTournament(id: string): Watch {
  if (current?.id !== id) {
    current?.close();
    current = new Watch(id);
  }
  return current;
}

/** Called on every page change: the watch stays on its tournament's page and on game pages
 * while its player takes part; anywhere else it ends. */
export function keepWatchFor(route: ReturnType<typeof currentRoute>): void {
  if (!current) return;
  if (route.page === 'tournament' && route.id === current.id) return;
  const me = current.state ? myNo(current.state, currentUser()?.username) : null;
  if (route.page === 'game' && me !== null && current.state?.status !== 'finished') return;
  current.close();
  current = null;
}
