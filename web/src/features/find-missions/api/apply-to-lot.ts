import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Application } from '@maillon/common/schemas/applications';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export function applyToLot({ batchId, technicianId }: { batchId: string; technicianId: string }): Promise<Application> {
  return api.post<Application>('/api/applications/batch', { batchId, technicianId, status: 'En attente' });
}

/** Applies to a lot; the lot list, the applications and the tab counts are refreshed before it settles. */
export function useApplyToLot(technicianId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (batchId: string) => applyToLot({ batchId, technicianId }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.availableLots }),
        queryClient.invalidateQueries({ queryKey: queryKeys.applications(technicianId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.technicianCounts(technicianId) }),
      ]),
  });
}
