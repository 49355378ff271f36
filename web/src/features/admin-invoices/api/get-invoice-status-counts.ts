import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { InvoiceChipCounts } from '@maillon/common/schemas/money';
import { api, qs } from '@/lib/api-client';
import { adminInvoicesRootKey } from './get-invoices';

export function getInvoiceStatusCounts(filters: { technicianId: string; search: string }): Promise<InvoiceChipCounts> {
  return api.get<InvoiceChipCounts>(`/api/invoices/status-counts${qs(filters)}`);
}

/** Counts of the four chips for the current technician filter and search. */
export const invoiceStatusCountsQueryOptions = (filters: { technicianId: string; search: string }) =>
  queryOptions({
    queryKey: [...adminInvoicesRootKey, 'counts', filters] as const,
    queryFn: () => getInvoiceStatusCounts(filters),
    placeholderData: keepPreviousData,
  });

export function useInvoiceStatusCounts(filters: { technicianId: string; search: string }) {
  return useQuery(invoiceStatusCountsQueryOptions(filters));
}
