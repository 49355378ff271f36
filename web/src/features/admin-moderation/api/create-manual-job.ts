import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Job, ManualVisitRequest } from '@maillon/common/schemas/moderation';
import { api } from '@/lib/api-client';
import { invalidateModeration } from './invalidate';

/** POST /api/missions/manual: "Ajout Manuel" creates a visit to moderate. */
export function createManualJob(body: ManualVisitRequest) {
  return api.post<Job>('/api/missions/manual', body);
}

export function useCreateManualJob() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createManualJob, onSuccess: () => invalidateModeration(queryClient) });
}
