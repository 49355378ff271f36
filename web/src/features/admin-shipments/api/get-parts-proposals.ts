import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LotPartsSummary } from '@maillon/common/schemas/parts';
import { api } from '@/lib/api-client';
import { adminShipmentsQueryKey } from './get-shipments';

export function getPartsProposals() {
  return api.get<LotPartsSummary[]>('/api/admin/parts/proposals');
}

/** The lots with a recruit whose devices need parts (or have dates to check), for Expéditions. */
export const partsProposalsQueryOptions = () =>
  queryOptions({ queryKey: [...adminShipmentsQueryKey, 'parts-proposals'] as const, queryFn: getPartsProposals });

export function usePartsProposals() {
  return useQuery(partsProposalsQueryOptions());
}
