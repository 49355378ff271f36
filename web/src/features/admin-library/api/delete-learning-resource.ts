import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { adminLibraryQueryKey } from './get-learning-resources';

export function deleteLearningResource(id: string) {
  return api.delete<{ success: true }>(`/api/learning-resources/${id}`);
}

export function useDeleteLearningResource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteLearningResource,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminLibraryQueryKey }),
        queryClient.invalidateQueries({ queryKey: queryKeys.adminCounts }),
      ]),
  });
}
