// The pages: the lobby at `/`, a game at `/game/{id}`, `/signup`, `/login`, `/account`, a
// profile at `/@/{name}`, `/leaderboard`, the tournaments at `/tournaments`, the creation form
// at `/tournament/new` and a tournament at `/tournament/{id}`, the analysis board at `/analysis`
// and `/game/{id}/analysis` (the server sends the page for these paths).

let onChange: (() => void) | null = null;

export function setRouteHandler(f: () => void): void {
  onChange = f;
  window.addEventListener('popstate', () => onChange?.());
}

export function navigate(path: string, replace = false): void {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  onChange?.();
  // A new page starts at its top, as a loaded one would (a game opened from low in the lobby
  // would otherwise show half its board).
  window.scrollTo(0, 0);
}

export type Route =
  | { page: 'lobby'; params: URLSearchParams }
  | { page: 'game'; id: string }
  | { page: 'import' }
  | { page: 'signup' | 'login' | 'account' }
  | { page: 'profile'; name: string; params: URLSearchParams }
  | { page: 'leaderboard'; params: URLSearchParams }
  | { page: 'tournaments'; params: URLSearchParams }
  | { page: 'tournament-new' }
  | { page: 'tournament'; id: string }
  | { page: 'analysis'; gameId: string | null; params: URLSearchParams };

export function routeOf(pathname: string, search: string): Route {
  const params = new URLSearchParams(search);
  const gameAnalysis = /^\/game\/([^/?#]+)\/analysis\/?$/.exec(pathname);
  if (gameAnalysis) return { page: 'analysis', gameId: decodeURIComponent(gameAnalysis[1]), params };
  if (/^\/analysis\/?$/.test(pathname)) return { page: 'analysis', gameId: null, params };
  const game = /^\/game\/([^/?#]+)/.exec(pathname);
  if (game) return { page: 'game', id: decodeURIComponent(game[1]) };
  const profile = /^\/@\/([^/?#]+)\/?$/.exec(pathname);
  if (profile) return { page: 'profile', name: decodeURIComponent(profile[1]), params };
  // `/tournament/{id}` is what the server serves; `/tournaments/{id}` is read too.
  const tournament = /^\/tournaments?\/([^/?#]+)\/?$/.exec(pathname);
  if (tournament) {
    const tid = decodeURIComponent(tournament[1]);
    return tid === 'new' ? { page: 'tournament-new' } : { page: 'tournament', id: tid };
  }
  const path = pathname.replace(/\/+$/, '');
  if (path === '/tournaments') return { page: 'tournaments', params };
  if (path === '/signup' || path === '/login' || path === '/account') return { page: path.slice(1) as 'signup' | 'login' | 'account' };
  if (path === '/leaderboard') return { page: 'leaderboard', params };
  if (path === '/import') return { page: 'import' };
  return { page: 'lobby', params };
}

export function currentRoute(): Route {
  return routeOf(location.pathname, location.search);
}

export function profilePath(name: string): string {
  return `/@/${encodeURIComponent(name)}`;
}

export function tournamentPath(id: string): string {
  return `/tournament/${encodeURIComponent(id)}`;
}

/** The creation form (served by the server's `/tournament/{id}` route). */
export const NEW_TOURNAMENT_PATH = '/tournament/new';

/** Makes a link open its page in place; a middle or modified click still opens a new tab. */
export function spaLink<T extends HTMLAnchorElement>(a: T): T {
  a.addEventListener('click', (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(a.getAttribute('href') ?? '/');
  });
  return a;
}
