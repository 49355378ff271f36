import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { SessionResponse } from '@maillon/common/schemas/auth';
import type { Technician } from '@maillon/common/schemas/technicians';
import { queryKeys } from '@/lib/query-keys';
import { storeSession } from '@/lib/session';
import { technicianProfileQueryKey } from './get-technician';

/** After a profile change: the answer replaces the profile and the session's copy (name in the menu, banners). */
export function useApplyTechnician() {
  const queryClient = useQueryClient();
  return useCallback(
    (technician: Technician) => {
      queryClient.setQueryData(technicianProfileQueryKey(technician.id), technician);
      const session = queryClient.getQueryData<SessionResponse | null>(queryKeys.me);
      if (session?.technician?.id === technician.id) {
        const next = { ...session, technician };
        queryClient.setQueryData(queryKeys.me, next);
        storeSession(next);
      }
    },
    [queryClient],
  );
}
