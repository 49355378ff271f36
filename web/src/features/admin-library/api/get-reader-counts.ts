import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { adminLibraryQueryKey } from './get-learning-resources';

export function getReaderCounts() {
  return api.get<Record<string, number>>('/api/learning-resources/reader-counts');
}

/** Number of readers per resource, for the cards. */
export const readerCountsQueryOptions = () =>
  queryOptions({ queryKey: [...adminLibraryQueryKey, 'reader-counts'] as const, queryFn: getReaderCounts });

export function useReaderCounts() {
  return useQuery(readerCountsQueryOptions());
}
