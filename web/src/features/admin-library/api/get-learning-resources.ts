import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { LearningResource } from '@maillon/common/schemas/learning-resources';
import { api, qs } from '@/lib/api-client';

/** Every admin library read lives under this prefix (resources, reader counts, readers). */
export const adminLibraryQueryKey = ['admin', 'library'] as const;

export function getLearningResources(search: string) {
  return api.get<LearningResource[]>(`/api/learning-resources${qs({ search: search.trim() })}`);
}

export const learningResourcesQueryOptions = (search: string) =>
  queryOptions({
    queryKey: [...adminLibraryQueryKey, 'resources', search.trim()] as const,
    queryFn: () => getLearningResources(search),
    placeholderData: keepPreviousData,
  });

export function useLearningResources(search: string) {
  return useQuery(learningResourcesQueryOptions(search));
}
