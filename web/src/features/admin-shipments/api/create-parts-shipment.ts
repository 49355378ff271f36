import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreatePartsShipmentResponse } from '@maillon/common/schemas/parts';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { adminShipmentsQueryKey } from './get-shipments';

/** « Créer le colis »: the draft parcel of the lot's proposal (a second call answers the same parcel). */
export function createPartsShipment(batchId: string) {
  return api.post<CreatePartsShipmentResponse>(`/api/admin/mission-batches/${batchId}/parts/shipment`);
}

export function useCreatePartsShipment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPartsShipment,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminShipmentsQueryKey }),
        queryClient.invalidateQueries({ queryKey: queryKeys.adminCounts }),
        // « Voir Colis » appears on the lot card.
        queryClient.invalidateQueries({ queryKey: queryKeys.adminLots }),
      ]),
  });
}
