import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LotParts, UnusedPart } from '@maillon/common/schemas/parts';
import { api } from '@/lib/api-client';
import { adminShipmentsQueryKey } from './get-shipments';

/** Under the shipments key: creating, shipping or editing a parcel refreshes the proposal. */
export const lotPartsQueryKey = (batchId: string) => [...adminShipmentsQueryKey, 'parts', batchId] as const;

export function getLotParts(batchId: string) {
  return api.get<LotParts>(`/api/admin/mission-batches/${batchId}/parts`);
}

/** « Colis proposé »: the lot's needs and the parcel they make, computed by the server from the device registry. */
export const lotPartsQueryOptions = (batchId: string) => queryOptions({ queryKey: lotPartsQueryKey(batchId), queryFn: () => getLotParts(batchId) });

export function useLotParts(batchId: string, enabled = true) {
  return useQuery({ ...lotPartsQueryOptions(batchId), enabled });
}

export function getUnusedParts(batchId: string) {
  return api.get<UnusedPart[]>(`/api/admin/mission-batches/${batchId}/parts/unused`);
}

/** « Pièces non utilisées »: parts sent for a visit whose report did not replace them. */
export function useUnusedParts(batchId: string, enabled = true) {
  return useQuery({ queryKey: [...lotPartsQueryKey(batchId), 'unused'], queryFn: () => getUnusedParts(batchId), enabled });
}
