import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidateMissionsAndLots } from './keys';

/** DELETE /api/missions/bulk-delete. */
export function bulkDeleteMissions(missionIds: string[]) {
  return api.delete<{ count: number }>('/api/missions/bulk-delete', { missionIds });
}

export function useBulkDeleteMissions() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: bulkDeleteMissions, onSuccess: () => invalidateMissionsAndLots(queryClient) });
}
