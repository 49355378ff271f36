import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api } from '@/lib/api-client';
import { readStoredSession, storeSession } from '@/lib/session';

/** Logout clears the session, the data cache and what the phone kept offline, then goes to the root path (spec §4). */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    try {
      await api.post('/api/auth/logout');
    } catch {
      // The local session is cleared anyway.
    }
    const user = readStoredSession()?.user;
    storeSession(null);
    // A technician's saved reads and queued changes leave the phone with it (the offline layer is already loaded there).
    if (user?.role === 'technician') {
      const { clearOfflineData } = await import('@/lib/offline/offline-provider');
      await clearOfflineData(queryClient, user.id);
    }
    queryClient.clear();
    navigate('/', { replace: true });
  }, [navigate, queryClient]);
}
