import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { TechnicianInvoice } from '@maillon/common/schemas/money';
import { getPage, qs } from '@/lib/api-client';

export const REVENUE_PAGE_SIZE = 20;

/** Everything the revenue tab reads for a technician lives under this prefix (one invalidation refreshes it all). */
export const revenueQueryKey = (technicianId: string) => ['revenue', technicianId] as const;
export const technicianInvoicesQueryKey = (technicianId: string) => [...revenueQueryKey(technicianId), 'invoices'] as const;

export function getTechnicianInvoices({ technicianId, offset }: { technicianId: string; offset: number }) {
  return getPage<TechnicianInvoice>(`/api/technician/${technicianId}/invoices${qs({ limit: REVENUE_PAGE_SIZE, offset })}`);
}

/** "Mes revenus", paged by the server. */
export const technicianInvoicesQueryOptions = (technicianId: string) =>
  infiniteQueryOptions({
    queryKey: technicianInvoicesQueryKey(technicianId),
    queryFn: ({ pageParam }) => getTechnicianInvoices({ technicianId, offset: pageParam }),
    initialPageParam: 0,
    getNextPageParam: (lastPage, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.items.length, 0);
      return loaded < lastPage.total && lastPage.items.length > 0 ? loaded : undefined;
    },
  });

export function useTechnicianInvoices(technicianId: string) {
  return useInfiniteQuery(technicianInvoicesQueryOptions(technicianId));
}
