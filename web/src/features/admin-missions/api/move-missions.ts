import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidateMissionsAndLots } from './keys';

/** PATCH /api/missions/move-to-batch: into a lot, or back to "À trier (sans lot)" with null. */
export function moveMissions(body: { missionIds: string[]; batchId: string | null }) {
  return api.patch<{ count: number }>('/api/missions/move-to-batch', body);
}

export function useMoveMissions() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: moveMissions, onSuccess: () => invalidateMissionsAndLots(queryClient) });
}
