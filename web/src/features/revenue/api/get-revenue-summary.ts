import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RevenueSummary } from '@maillon/common/schemas/money';
import { api } from '@/lib/api-client';
import { revenueQueryKey } from './get-invoices';

export const revenueSummaryQueryKey = (technicianId: string) => [...revenueQueryKey(technicianId), 'summary'] as const;

export function getRevenueSummary(technicianId: string): Promise<RevenueSummary> {
  return api.get<RevenueSummary>(`/api/technician/${technicianId}/revenue-summary`);
}

/** The three totals, computed by the server. */
export const revenueSummaryQueryOptions = (technicianId: string) =>
  queryOptions({ queryKey: revenueSummaryQueryKey(technicianId), queryFn: () => getRevenueSummary(technicianId) });

export function useRevenueSummary(technicianId: string) {
  return useQuery(revenueSummaryQueryOptions(technicianId));
}
