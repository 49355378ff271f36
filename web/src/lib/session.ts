import { STORAGE_PREFIX } from '@maillon/common/constants';
import type { SessionResponse } from '@maillon/common/schemas/auth';

const KEY = `${STORAGE_PREFIX}session`;

/** The session the server answered during this page's lifetime (login or /api/auth/me); null after logout. */
let confirmed: SessionResponse | null = null;

/** Only non-secret session info is kept (the token lives in an httpOnly cookie). */
export function readStoredSession(): SessionResponse | null {
  try {
    const raw = localStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as SessionResponse) : null;
  } catch {
    return null;
  }
}

/** A session just answered by the server, so the dashboard need not ask /api/auth/me again after a login. */
export function readConfirmedSession(): SessionResponse | null {
  return confirmed;
}

export function storeSession(session: SessionResponse | null): void {
  confirmed = session;
  try {
    if (session) localStorage.setItem(KEY, JSON.stringify(session));
    else localStorage.removeItem(KEY);
  } catch {
    // Private mode: the cookie session still works.
  }
}
