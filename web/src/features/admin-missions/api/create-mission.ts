import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateMissionRequest, Mission } from '@maillon/common/schemas/admin-missions';
import { api } from '@/lib/api-client';
import { invalidateMissionsAndLots } from './keys';

/** POST /api/missions: a new (draft) mission. */
export function createMission(body: CreateMissionRequest) {
  return api.post<Mission>('/api/missions', { ...body, deadline: body.deadline.toISOString() });
}

export function useCreateMission() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createMission, onSuccess: () => invalidateMissionsAndLots(queryClient) });
}
