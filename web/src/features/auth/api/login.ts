import type { LoginRequest, SessionResponse } from '@maillon/common/schemas/auth';
import { api } from '@/lib/api-client';
import { storeSession } from '@/lib/session';

/**
 * POST /api/auth/login. No mutation hook: the login pages don't load TanStack Query (decision 013); the stored
 * session is what the dashboard's /api/auth/me query starts from.
 */
export async function login(body: LoginRequest): Promise<SessionResponse> {
  const session = await api.post<SessionResponse>('/api/auth/login', body);
  storeSession(session);
  return session;
}
