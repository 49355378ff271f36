import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { AvailableLot } from '@maillon/common/schemas/lots';
import { getPage } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { availableLotsPath, type AvailableLotsFilters } from './available-lots-path';

export { LOTS_PAGE_SIZE, type AvailableLotsFilters } from './available-lots-path';

export function getAvailableLots({ technicianId, filters, offset }: { technicianId: string; filters: AvailableLotsFilters; offset: number }) {
  return getPage<AvailableLot>(availableLotsPath(technicianId, filters, offset));
}

/** Lots open to applications, filtered and paged by the server ("Afficher plus" loads the next page). */
export const availableLotsQueryOptions = (technicianId: string, filters: AvailableLotsFilters) =>
  infiniteQueryOptions({
    queryKey: [...queryKeys.availableLots, technicianId, filters] as const,
    queryFn: ({ pageParam }) => getAvailableLots({ technicianId, filters, offset: pageParam }),
    initialPageParam: 0,
    getNextPageParam: (lastPage, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.items.length, 0);
      return loaded < lastPage.total && lastPage.items.length > 0 ? loaded : undefined;
    },
    placeholderData: keepPreviousData,
  });

export function useAvailableLots(technicianId: string, filters: AvailableLotsFilters) {
  return useInfiniteQuery(availableLotsQueryOptions(technicianId, filters));
}
