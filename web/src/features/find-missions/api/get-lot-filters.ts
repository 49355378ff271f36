import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LotFilters } from '@maillon/common/schemas/lots';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export function getLotFilters(): Promise<LotFilters> {
  return api.get<LotFilters>('/api/mission-batches/available-filters');
}

/** Departments and tags of the open lots, offered by the filters. */
export const lotFiltersQueryOptions = () =>
  queryOptions({ queryKey: [...queryKeys.availableLots, 'filters'] as const, queryFn: getLotFilters });

export function useLotFilters() {
  return useQuery(lotFiltersQueryOptions());
}
