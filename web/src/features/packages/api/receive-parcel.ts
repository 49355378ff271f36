import { useQueuedRequest } from '@/lib/offline/use-queue';
import type { QueuedRequestSpec } from '@/lib/offline/queue';
import { queryKeys } from '@/lib/query-keys';
import { parcelsQueryKey } from './get-parcels';

export interface ReceiveParcelInput {
  technicianId: string;
  shipmentId: string;
  /** The parcel's mission, for the pending and refused lists. */
  title: string;
}

export const parcelTarget = (shipmentId: string) => `shipment:${shipmentId}`;

/** "Marquer comme reçu", queued when offline (decision 023); refreshes the list and the tab's count badge. */
export function receiveParcelRequest({ technicianId, shipmentId, title }: ReceiveParcelInput): QueuedRequestSpec {
  return {
    method: 'PATCH',
    url: `/api/shipments/${shipmentId}/receive`,
    json: {},
    label: `Colis reçu — ${title}`,
    target: parcelTarget(shipmentId),
    scope: parcelTarget(shipmentId),
    invalidate: [parcelsQueryKey(technicianId), queryKeys.technicianCounts(technicianId)],
  };
}

export function useReceiveParcel() {
  return useQueuedRequest(receiveParcelRequest);
}
