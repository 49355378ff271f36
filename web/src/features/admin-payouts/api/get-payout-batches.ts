import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { PayoutBatch } from '@maillon/common/schemas/payout-batches';
import { getPage, qs } from '@/lib/api-client';
import { payoutsRootKey } from './keys';

export const BATCHES_PAGE_SIZE = 10;

export function getPayoutBatches(offset: number) {
  return getPage<PayoutBatch>(`/api/payout-batches${qs({ limit: BATCHES_PAGE_SIZE, offset })}`);
}

/** The batches, newest first. */
export const payoutBatchesQueryOptions = (offset: number) =>
  queryOptions({ queryKey: [...payoutsRootKey, 'batches', offset] as const, queryFn: () => getPayoutBatches(offset), placeholderData: keepPreviousData });

export function usePayoutBatches(offset: number) {
  return useQuery(payoutBatchesQueryOptions(offset));
}
