import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { TechnicianTransfer } from '@maillon/common/schemas/money';
import { getPage, qs } from '@/lib/api-client';
import { REVENUE_PAGE_SIZE, revenueQueryKey } from './get-invoices';

export const technicianTransfersQueryKey = (technicianId: string) => [...revenueQueryKey(technicianId), 'transfers'] as const;

export function getTechnicianTransfers({ technicianId, offset }: { technicianId: string; offset: number }) {
  return getPage<TechnicianTransfer>(`/api/technician/${technicianId}/transfers${qs({ limit: REVENUE_PAGE_SIZE, offset })}`);
}

/** "Mes virements", paged by the server. */
export const technicianTransfersQueryOptions = (technicianId: string) =>
  infiniteQueryOptions({
    queryKey: technicianTransfersQueryKey(technicianId),
    queryFn: ({ pageParam }) => getTechnicianTransfers({ technicianId, offset: pageParam }),
    initialPageParam: 0,
    getNextPageParam: (lastPage, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.items.length, 0);
      return loaded < lastPage.total && lastPage.items.length > 0 ? loaded : undefined;
    },
  });

export function useTechnicianTransfers(technicianId: string) {
  return useInfiniteQuery(technicianTransfersQueryOptions(technicianId));
}
