import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateShipmentRequest, Shipment } from '@maillon/common/schemas/shipments';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { adminShipmentsQueryKey } from './get-shipments';

export function createShipment(body: CreateShipmentRequest) {
  return api.post<Shipment>('/api/shipments', body as Record<string, unknown>);
}

export function useCreateShipment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createShipment,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminShipmentsQueryKey }),
        queryClient.invalidateQueries({ queryKey: queryKeys.adminCounts }),
      ]),
  });
}
