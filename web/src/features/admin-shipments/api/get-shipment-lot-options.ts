import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { PICKER_LIMIT_DEFAULT } from '@maillon/common/schemas/pickers';
import type { ShipmentLotOption } from '@maillon/common/schemas/shipments';
import { api, qs } from '@/lib/api-client';
import { adminShipmentsQueryKey } from './get-shipments';

/** The lots asked at a time (the server allows up to PICKER_LIMIT_MAX): as many answered means « précisez la recherche ». */
export const SHIPMENT_LOT_OPTIONS_LIMIT = PICKER_LIMIT_DEFAULT;

/** GET /api/shipments/admin/lot-options: the first active lots with a recruit (by title) whose title contains `search`. */
export function getShipmentLotOptions(search: string): Promise<ShipmentLotOption[]> {
  return api.get<ShipmentLotOption[]>(
    `/api/shipments/admin/lot-options${qs({ search: search.trim(), limit: SHIPMENT_LOT_OPTIONS_LIMIT })}`,
  );
}

/** The same for one lot (the one a modal opens with): null when no parcel can be made for it any more. */
export async function getShipmentLotOption(batchId: string): Promise<ShipmentLotOption | null> {
  const found = await api.get<ShipmentLotOption[]>(`/api/shipments/admin/lot-options${qs({ batchId, limit: 1 })}`);
  return found[0] ?? null;
}

// Recruitments happen in another tab: read afresh each time the picker or a modal opens (staleTime 0).
export const shipmentLotOptionsQueryOptions = (search: string) =>
  queryOptions({
    queryKey: [...adminShipmentsQueryKey, 'lot-options', { search: search.trim() }] as const,
    queryFn: () => getShipmentLotOptions(search),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

// Not kept once the modal closes (gcTime 0): the next modal waits for the lot as it is then, not as it was.
export const shipmentLotOptionQueryOptions = (batchId: string) =>
  queryOptions({
    queryKey: [...adminShipmentsQueryKey, 'lot-options', { batchId }] as const,
    queryFn: () => getShipmentLotOption(batchId),
    staleTime: 0,
    gcTime: 0,
  });

/** The lot picker's suggestions, asked only while its list is open. */
export function useShipmentLotOptions(search: string, { enabled }: { enabled: boolean }) {
  return useQuery({ ...shipmentLotOptionsQueryOptions(search), enabled });
}

export function useShipmentLotOption(batchId: string, { enabled }: { enabled: boolean }) {
  return useQuery({ ...shipmentLotOptionQueryOptions(batchId), enabled });
}
