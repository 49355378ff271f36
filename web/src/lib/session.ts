import { STORAGE_PREFIX } from '@maillon/common/constants';
import type { SessionResponse } from '@maillon/common/schemas/auth';

const KEY = `${STORAGE_PREFIX}session`;

/** Only non-secret session info is kept (the token lives in an httpOnly cookie). */
export function readStoredSession(): SessionResponse | null {
  try {
    const raw = localStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as SessionResponse) : null;
  } catch {
    return null;
  }
}

export function storeSession(session: SessionResponse | null): void {
  try {
    if (session) localStorage.setItem(KEY, JSON.stringify(session));
    else localStorage.removeItem(KEY);
  } catch {
    // Private mode: the cookie session still works.
  }
}
