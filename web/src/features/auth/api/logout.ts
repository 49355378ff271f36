import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api } from '@/lib/api-client';
import { storeSession } from '@/lib/session';

/** Logout clears the session and the data cache, then goes to the root path (spec §4). */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    try {
      await api.post('/api/auth/logout');
    } catch {
      // The local session is cleared anyway.
    }
    storeSession(null);
    queryClient.clear();
    navigate('/', { replace: true });
  }, [navigate, queryClient]);
}
