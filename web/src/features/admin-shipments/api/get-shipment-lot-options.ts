import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ShipmentLotOption } from '@maillon/common/schemas/shipments';
import { api } from '@/lib/api-client';
import { adminShipmentsQueryKey } from './get-shipments';

export function getShipmentLotOptions() {
  return api.get<ShipmentLotOption[]>('/api/shipments/admin/lot-options');
}

/** The active lots with a recruited technician, for the lot select of the shipment modals. */
export const shipmentLotOptionsQueryOptions = () =>
  queryOptions({
    queryKey: [...adminShipmentsQueryKey, 'lot-options'] as const,
    queryFn: getShipmentLotOptions,
    // Recruitments happen in another tab: read afresh each time a modal opens.
    staleTime: 0,
  });

export function useShipmentLotOptions(enabled: boolean) {
  return useQuery({ ...shipmentLotOptionsQueryOptions(), enabled });
}
