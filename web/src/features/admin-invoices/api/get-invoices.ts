import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminInvoice, InvoiceChip } from '@maillon/common/schemas/money';
import { getPage, qs } from '@/lib/api-client';

export const INVOICES_PAGE_SIZE = 20;

/** Everything the invoices tab reads lives under this prefix: one invalidation refreshes it all. */
export const adminInvoicesRootKey = ['admin', 'invoices'] as const;

export interface AdminInvoiceFilters {
  technicianId: string;
  search: string;
  status: InvoiceChip | '';
}

export function getAdminInvoices({ filters, page }: { filters: AdminInvoiceFilters; page: number }) {
  return getPage<AdminInvoice>(`/api/invoices${qs({ ...filters, limit: INVOICES_PAGE_SIZE, offset: page * INVOICES_PAGE_SIZE })}`);
}

/** One page of invoices, filtered and paged by the server. */
export const adminInvoicesQueryOptions = (filters: AdminInvoiceFilters, page: number) =>
  queryOptions({
    queryKey: [...adminInvoicesRootKey, 'list', filters, page] as const,
    queryFn: () => getAdminInvoices({ filters, page }),
    placeholderData: keepPreviousData,
  });

export function useAdminInvoices(filters: AdminInvoiceFilters, page: number) {
  return useQuery(adminInvoicesQueryOptions(filters, page));
}
