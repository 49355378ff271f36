import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Mission } from '@maillon/common/schemas/admin-missions';
import { api } from '@/lib/api-client';
import { invalidateMissionsAndLots } from './keys';

/** PATCH /api/missions/{id}/publish: a draft becomes active. */
export function publishMission(id: string) {
  return api.patch<Mission>(`/api/missions/${id}/publish`);
}

export function usePublishMission() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: publishMission, onSuccess: () => invalidateMissionsAndLots(queryClient) });
}
