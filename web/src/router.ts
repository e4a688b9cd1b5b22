// Two pages: the lobby at `/` and a game at `/game/{id}` (the server's SPA fallback).

let onChange: (() => void) | null = null;

export function setRouteHandler(f: () => void): void {
  onChange = f;
  window.addEventListener('popstate', () => onChange?.());
}

export function navigate(path: string): void {
  history.pushState(null, '', path);
  onChange?.();
}

export type Route = { page: 'lobby'; params: URLSearchParams } | { page: 'game'; id: string };

export function currentRoute(): Route {
  const m = /^\/game\/([^/?#]+)/.exec(location.pathname);
  if (m) return { page: 'game', id: decodeURIComponent(m[1]) };
  return { page: 'lobby', params: new URLSearchParams(location.search) };
}
