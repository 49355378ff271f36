import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Job, JobFields } from '@maillon/common/schemas/moderation';
import { api } from '@/lib/api-client';
import { invalidateModeration } from './invalidate';

/** PUT /api/jobs/{id}: Modifier. */
export function updateJob({ id, body }: { id: string; body: JobFields }) {
  return api.put<Job>(`/api/jobs/${id}`, body);
}

export function useUpdateJob() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateJob, onSuccess: () => invalidateModeration(queryClient) });
}
