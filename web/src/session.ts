// Who is logged in: `GET /api/account` once at start, then whatever sign-up, log-in and
// log-out say. The session itself is an HttpOnly cookie the page never sees.

import { ApiError } from './api';
import { accounts, type Me } from './players-api';

let me: Me | null = null;
const listeners = new Set<() => void>();

/** The account of this browser, or null. */
export function currentUser(): Me | null {
  return me;
}

export function setUser(m: Me | null): void {
  const changed = (m?.username ?? null) !== (me?.username ?? null);
  me = m;
  if (changed) for (const f of listeners) f();
}

/** Called when someone logs in or out (the header and the pages are drawn again). */
export function onSessionChange(f: () => void): () => void {
  listeners.add(f);
  return () => listeners.delete(f);
}

/** Asks the server; a 401 means nobody, any other failure keeps what was known. */
export async function loadSession(): Promise<Me | null> {
  try {
    setUser(await accounts.me());
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) setUser(null);
  }
  return me;
}

export async function logOut(): Promise<void> {
  try {
    await accounts.logOut();
  } finally {
    setUser(null);
  }
}
