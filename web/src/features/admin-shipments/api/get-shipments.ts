import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Shipment, ShipmentFilter } from '@maillon/common/schemas/shipments';
import { getPage, qs } from '@/lib/api-client';

export const SHIPMENTS_PAGE_SIZE = 12;

/** Every admin shipment read lives under this prefix (list, pill counts, lot options). */
export const adminShipmentsQueryKey = ['admin', 'shipments'] as const;

export interface ShipmentFilters {
  technicianId: string;
  batchId: string;
  search: string;
  status: ShipmentFilter;
  offset: number;
}

export function getShipments(filters: ShipmentFilters) {
  return getPage<Shipment>(
    `/api/shipments/admin${qs({ ...filters, search: filters.search.trim(), status: filters.status === 'all' ? undefined : filters.status, limit: SHIPMENTS_PAGE_SIZE })}`,
  );
}

export const shipmentsQueryOptions = (filters: ShipmentFilters) =>
  queryOptions({
    queryKey: [...adminShipmentsQueryKey, 'list', filters] as const,
    queryFn: () => getShipments(filters),
    placeholderData: keepPreviousData,
  });

export function useShipments(filters: ShipmentFilters) {
  return useQuery(shipmentsQueryOptions(filters));
}
