import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Mission, UpdateMissionRequest } from '@maillon/common/schemas/admin-missions';
import { api } from '@/lib/api-client';
import { invalidateMissionsAndLots } from './keys';

/** PUT /api/missions/{id}: edit mission. */
export function updateMission({ id, body }: { id: string; body: UpdateMissionRequest }) {
  return api.put<Mission>(`/api/missions/${id}`, body);
}

export function useUpdateMission() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateMission, onSuccess: () => invalidateMissionsAndLots(queryClient) });
}
