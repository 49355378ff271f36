import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LearningResource } from '@maillon/common/schemas/learning-resources';
import { api } from '@/lib/api-client';

export const learningResourcesQueryKey = ['learning-resources'] as const;

export function getLearningResources(): Promise<LearningResource[]> {
  return api.get<LearningResource[]>('/api/learning-resources');
}

export const learningResourcesQueryOptions = () =>
  queryOptions({ queryKey: learningResourcesQueryKey, queryFn: getLearningResources });

export function useLearningResources() {
  return useQuery(learningResourcesQueryOptions());
}
