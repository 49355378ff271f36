import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Parcel } from '@maillon/common/schemas/parcels';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { parcelsQueryKey } from './get-parcels';

export function receiveParcel(shipmentId: string) {
  return api.patch<Parcel>(`/api/shipments/${shipmentId}/receive`);
}

/** "Marquer comme reçu": refreshes the list and the tab's count badge. */
export function useReceiveParcel(technicianId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: receiveParcel,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: parcelsQueryKey(technicianId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.technicianCounts(technicianId) }),
      ]),
  });
}
