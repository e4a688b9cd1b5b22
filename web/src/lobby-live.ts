// The live part of the home page: quick pairing and seeks, kept current by the lobby socket.
// When the server says a game started for this player, the page goes there at once.

import { h } from './dom';
import { LobbySocket } from './lobby-socket';
import { applyLobbyMessage, startedGame, EMPTY_LOBBY, type LobbyState } from './lobby-state';
import { poolsCard, forgetPool } from './pools';
import { seeksCard } from './seeks';
import { navigate } from './router';

export function lobbyLive(): { el: HTMLElement; stop: () => void } {
  let state: LobbyState = EMPTY_LOBBY;
  const pools = poolsCard();
  const seeks = seeksCard();
  seeks.update([]);
  const socket = new LobbySocket((msg) => {
    const game = startedGame(msg);
    if (game) {
      forgetPool();
      navigate(`/game/${encodeURIComponent(game)}`);
      return;
    }
    const next = applyLobbyMessage(state, msg);
    if (next.pools !== state.pools) pools.update(next.pools);
    if (next.seeks !== state.seeks) seeks.update(next.seeks);
    state = next;
  });
  return { el: h('div', { class: 'arena' }, pools.el, seeks.el), stop: () => socket.close() };
}
