import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LearningResource } from '@maillon/common/schemas/learning-resources';
import type { LearningResourceRequest } from '@maillon/common/schemas/library';
import { api } from '@/lib/api-client';
import { adminLibraryQueryKey } from './get-learning-resources';

export function updateLearningResource({ id, body }: { id: string; body: LearningResourceRequest }) {
  return api.put<LearningResource>(`/api/learning-resources/${id}`, body);
}

export function useUpdateLearningResource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateLearningResource,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminLibraryQueryKey }),
  });
}
