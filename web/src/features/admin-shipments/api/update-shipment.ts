import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Shipment, UpdateShipmentRequest } from '@maillon/common/schemas/shipments';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { adminShipmentsQueryKey } from './get-shipments';

export function updateShipment({ id, body }: { id: string; body: UpdateShipmentRequest }) {
  return api.patch<Shipment>(`/api/shipments/${id}`, body as Record<string, unknown>);
}

export function useUpdateShipment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateShipment,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminShipmentsQueryKey }),
        queryClient.invalidateQueries({ queryKey: queryKeys.adminCounts }),
      ]),
  });
}
