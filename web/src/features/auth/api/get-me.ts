import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SessionResponse } from '@maillon/common/schemas/auth';
import { api, ApiError, NetworkError } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { readConfirmedSession, readStoredSession, storeSession } from '@/lib/session';

export const meQueryKey = queryKeys.me;

/** The signed-in account, or null on 401 (spec §6: unauthenticated reads may return null). */
export async function getMe(): Promise<SessionResponse | null> {
  try {
    const session = await api.get<SessionResponse>('/api/auth/me');
    storeSession(session);
    return session;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      storeSession(null);
      return null;
    }
    // Offline (decision 023): the session this browser last confirmed opens the technician area; the server checks
    // it again as soon as the network is back (the sync refreshes this read) and with every queued change.
    const stored = error instanceof NetworkError ? readStoredSession() : null;
    if (stored) return stored;
    throw error;
  }
}

export const meQueryOptions = () =>
  queryOptions({
    queryKey: meQueryKey,
    queryFn: getMe,
    // Right after a login (public pages, without the query cache) the session is already confirmed.
    initialData: () => readConfirmedSession() ?? undefined,
    placeholderData: () => readStoredSession() ?? undefined,
  });

export function useMe() {
  return useQuery(meQueryOptions());
}
