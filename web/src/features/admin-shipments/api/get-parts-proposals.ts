import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { PARTS_PROPOSALS_PAGE_SIZE, type PartsProposalsPage } from '@maillon/common/schemas/parts';
import { api, qs } from '@/lib/api-client';
import { adminShipmentsQueryKey } from './get-shipments';

const partsProposalsQueryKey = [...adminShipmentsQueryKey, 'parts-proposals'] as const;

export function getPartsProposals(after: string | null) {
  return api.get<PartsProposalsPage>(`/api/admin/parts/proposals${qs({ limit: PARTS_PROPOSALS_PAGE_SIZE, after })}`);
}

/** The lots with a recruit whose devices need parts (or have dates to check), for Expéditions, a page at a time. */
export const partsProposalsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: partsProposalsQueryKey,
    queryFn: ({ pageParam }) => getPartsProposals(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.next,
  });

export function usePartsProposals() {
  return useInfiniteQuery(partsProposalsQueryOptions());
}

/** The proposals of the given lots: the lot cards on a page of « Missions & Lots ». */
export const lotsPartsProposalsQueryOptions = (batchIds: readonly string[]) =>
  queryOptions({
    queryKey: [...partsProposalsQueryKey, 'lots', [...batchIds]] as const,
    queryFn: () => api.get<PartsProposalsPage>(`/api/admin/parts/proposals${qs({ batchIds: batchIds.join(',') })}`),
    enabled: batchIds.length > 0,
  });

export function useLotsPartsProposals(batchIds: readonly string[]) {
  return useQuery(lotsPartsProposalsQueryOptions(batchIds));
}
