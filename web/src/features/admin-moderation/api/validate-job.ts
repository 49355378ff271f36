import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Mission } from '@maillon/common/schemas/admin-missions';
import { api } from '@/lib/api-client';
import { invalidateModeration } from './invalidate';

/** POST /api/jobs/{id}/validate: the visit becomes an active mission in "À trier", atomically. */
export function validateJob(id: string) {
  return api.post<Mission>(`/api/jobs/${id}/validate`);
}

export function useValidateJob() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: validateJob, onSuccess: () => invalidateModeration(queryClient, { missions: true }) });
}
