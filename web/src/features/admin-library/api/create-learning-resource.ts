import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LearningResource } from '@maillon/common/schemas/learning-resources';
import type { LearningResourceRequest } from '@maillon/common/schemas/library';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { adminLibraryQueryKey } from './get-learning-resources';

export function createLearningResource(body: LearningResourceRequest) {
  return api.post<LearningResource>('/api/learning-resources', body);
}

export function useCreateLearningResource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createLearningResource,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminLibraryQueryKey }),
        queryClient.invalidateQueries({ queryKey: queryKeys.adminCounts }),
      ]),
  });
}
