import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ResourceReader } from '@maillon/common/schemas/library';
import { getPage, qs } from '@/lib/api-client';
import { adminLibraryQueryKey } from './get-learning-resources';

export const READERS_PAGE_SIZE = 50;

export function getResourceReaders({ resourceId, search, offset }: { resourceId: string; search: string; offset: number }) {
  return getPage<ResourceReader>(
    `/api/learning-resources/${resourceId}/readers${qs({ search: search.trim(), limit: READERS_PAGE_SIZE, offset })}`,
  );
}

/** The technicians who read a resource (name, date), searchable. */
export const resourceReadersQueryOptions = (params: { resourceId: string; search: string; offset: number }) =>
  queryOptions({
    queryKey: [...adminLibraryQueryKey, 'readers', params] as const,
    queryFn: () => getResourceReaders(params),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export function useResourceReaders(params: { resourceId: string; search: string; offset: number }) {
  return useQuery(resourceReadersQueryOptions(params));
}
