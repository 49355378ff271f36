import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Shipment } from '@maillon/common/schemas/shipments';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { adminShipmentsQueryKey } from './get-shipments';

/** Annuler: unless Réceptionné. */
export function cancelShipment(id: string) {
  return api.patch<Shipment>(`/api/shipments/${id}/cancel`);
}

export function useCancelShipment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelShipment,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminShipmentsQueryKey }),
        queryClient.invalidateQueries({ queryKey: queryKeys.adminCounts }),
      ]),
  });
}
