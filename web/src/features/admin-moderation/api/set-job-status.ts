import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { JobStatus } from '@maillon/common/enums';
import type { Job } from '@maillon/common/schemas/moderation';
import { api } from '@/lib/api-client';
import { invalidateModeration } from './invalidate';

/** PUT /api/jobs/{id}/status: Refuser (refused) or Restaurer (pending). */
export function setJobStatus({ id, status }: { id: string; status: JobStatus }) {
  return api.put<Job>(`/api/jobs/${id}/status`, { status });
}

export function useSetJobStatus() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: setJobStatus, onSuccess: () => invalidateModeration(queryClient) });
}
