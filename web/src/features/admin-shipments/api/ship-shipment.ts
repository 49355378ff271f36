import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Shipment } from '@maillon/common/schemas/shipments';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { adminShipmentsQueryKey } from './get-shipments';

/** Expédié: only from Brouillon. */
export function shipShipment(id: string) {
  return api.patch<Shipment>(`/api/shipments/${id}/ship`);
}

export function useShipShipment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: shipShipment,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminShipmentsQueryKey }),
        queryClient.invalidateQueries({ queryKey: queryKeys.adminCounts }),
      ]),
  });
}
