import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminBatch, CreateBatchRequest, UpdateBatchRequest } from '@maillon/common/schemas/admin-lots';
import { api } from '@/lib/api-client';
import { invalidateMissionsAndLots } from './keys';

/** POST /api/mission-batches (Créer un lot) or PUT /api/mission-batches/{id} (Modifier, with visibility). */
export function saveBatch({ id, body }: { id?: string | undefined; body: CreateBatchRequest | UpdateBatchRequest }) {
  return id ? api.put<AdminBatch>(`/api/mission-batches/${id}`, body) : api.post<AdminBatch>('/api/mission-batches', body);
}

export function useSaveBatch() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: saveBatch, onSuccess: () => invalidateMissionsAndLots(queryClient) });
}
