// Entry point: the header and the page of the current address, drawn again when the address,
// the language or the logged-in account changes.

import 'chessground/assets/chessground.base.css';
import 'chessground/assets/chessground.brown.css';
import 'chessground/assets/chessground.cburnett.css';
import './style.css';
import { h } from './dom';
import { detectLang, setLang, t } from './i18n';
import { currentRoute, setRouteHandler } from './router';
import { renderLobby } from './lobby';
import { renderGameOrImported, renderImport } from './import';
import { renderAuth } from './auth-pages';
import { renderAccount } from './account';
import { renderProfile } from './profile';
import { renderLeaderboard } from './leaderboard';
import { renderTournamentList } from './tournament-list';
import { renderTournamentCreate } from './tournament-create';
import { renderTournament } from './tournament-page';
import { renderAnalysis } from './analysis/page';
import { keepWatchFor } from './tournament-watch';
import { header } from './header';
import { liveRegion } from './feedback';
import { loadSession, onSessionChange } from './session';
import { initRules } from './rules/wasm';
import { startChallenges } from './challenges';

const app = document.getElementById('app')!;
let cleanup: (() => void) | null = null;

function render(): void {
  cleanup?.();
  cleanup = null;
  const main = h('main', { id: 'main' });
  app.replaceChildren(header(render), main);
  liveRegion();
  const route = currentRoute();
  keepWatchFor(route);
  document.title = t().title;
  switch (route.page) {
    case 'import':
      cleanup = renderImport(main);
      break;
    case 'game':
      cleanup = renderGameOrImported(main, route.id);
      break;
    case 'signup':
    case 'login':
      cleanup = renderAuth(main, route.page);
      break;
    case 'account':
      cleanup = renderAccount(main);
      break;
    case 'profile':
      cleanup = renderProfile(main, route.name, route.params);
      break;
    case 'leaderboard':
      cleanup = renderLeaderboard(main, route.params);
      break;
    case 'tournaments':
      cleanup = renderTournamentList(main);
      break;
    case 'tournament-new':
      cleanup = renderTournamentCreate(main);
      break;
    case 'tournament':
      cleanup = renderTournament(main, route.id);
      break;
    case 'analysis':
      cleanup = renderAnalysis(main, { gameId: route.gameId, params: route.params });
      break;
    default:
      cleanup = renderLobby(main, route.params);
  }
}

setLang(detectLang());
setRouteHandler(render);
// Who is logged in decides the header and the lobby: ask first (a local request), then draw.
// The rules core (WebAssembly, ~160 kB gzipped) loads meanwhile: every board needs it.
void Promise.allSettled([loadSession(), initRules()]).finally(() => {
  onSessionChange(render);
  startChallenges();
  render();
});
