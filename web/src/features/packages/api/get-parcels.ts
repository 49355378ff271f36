import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { Parcel } from '@maillon/common/schemas/parcels';
import { getPage, qs } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const PARCELS_PAGE_SIZE = 20;

export const parcelsQueryKey = queryKeys.parcels;

export function getParcels({ technicianId, search, offset }: { technicianId: string; search: string; offset: number }) {
  return getPage<Parcel>(`/api/shipments${qs({ technicianId, search: search.trim(), limit: PARCELS_PAGE_SIZE, offset })}`);
}

/** The technician's parcels matching the search, on the way first, paged by the server. */
export const parcelsQueryOptions = (technicianId: string, search: string) =>
  infiniteQueryOptions({
    queryKey: [...parcelsQueryKey(technicianId), search.trim()] as const,
    queryFn: ({ pageParam }) => getParcels({ technicianId, search, offset: pageParam }),
    initialPageParam: 0,
    getNextPageParam: (lastPage, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.items.length, 0);
      return loaded < lastPage.total && lastPage.items.length > 0 ? loaded : undefined;
    },
  });

export function useParcels(technicianId: string, search: string) {
  return useInfiniteQuery(parcelsQueryOptions(technicianId, search));
}
