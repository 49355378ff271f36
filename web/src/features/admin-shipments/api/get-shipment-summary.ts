import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ShipmentSummary } from '@maillon/common/schemas/shipments';
import { api, qs } from '@/lib/api-client';
import { adminShipmentsQueryKey, type ShipmentFilters } from './get-shipments';

type SummaryFilters = Pick<ShipmentFilters, 'technicianId' | 'batchId' | 'search'>;

export function getShipmentSummary(filters: SummaryFilters) {
  return api.get<ShipmentSummary>(`/api/shipments/admin/summary${qs({ ...filters, search: filters.search.trim() })}`);
}

/** Pill counts under the current filters. */
export const shipmentSummaryQueryOptions = (filters: SummaryFilters) =>
  queryOptions({
    queryKey: [...adminShipmentsQueryKey, 'summary', filters] as const,
    queryFn: () => getShipmentSummary(filters),
    placeholderData: keepPreviousData,
  });

export function useShipmentSummary(filters: SummaryFilters) {
  return useQuery(shipmentSummaryQueryOptions(filters));
}
