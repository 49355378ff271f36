import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { PayoutCandidate } from '@maillon/common/schemas/payout-batches';
import { getPage, qs } from '@/lib/api-client';
import { payoutsRootKey } from './keys';

export const CANDIDATES_PAGE_SIZE = 50;

export function getPayoutCandidates(offset: number) {
  return getPage<PayoutCandidate>(`/api/payout-batches/candidates${qs({ limit: CANDIDATES_PAGE_SIZE, offset })}`);
}

/** The « Enregistré » transfers no batch holds yet, oldest first, paged by the server. */
export const payoutCandidatesQueryOptions = (offset: number) =>
  queryOptions({ queryKey: [...payoutsRootKey, 'candidates', offset] as const, queryFn: () => getPayoutCandidates(offset), placeholderData: keepPreviousData });

export function usePayoutCandidates(offset: number) {
  return useQuery(payoutCandidatesQueryOptions(offset));
}
