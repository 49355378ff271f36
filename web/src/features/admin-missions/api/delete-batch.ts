import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidateMissionsAndLots } from './keys';

/** DELETE /api/mission-batches/{id}: only an empty lot. */
export function deleteBatch(id: string) {
  return api.delete<{ success: true }>(`/api/mission-batches/${id}`);
}

export function useDeleteBatch() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteBatch, onSuccess: () => invalidateMissionsAndLots(queryClient) });
}
