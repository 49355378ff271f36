import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PayoutBatchDetail } from '@maillon/common/schemas/payout-batches';
import { api } from '@/lib/api-client';
import { payoutsRootKey } from './keys';

export function getPayoutBatch(batchId: string): Promise<PayoutBatchDetail> {
  return api.get<PayoutBatchDetail>(`/api/payout-batches/${batchId}`);
}

/** One batch with its lines (masked IBANs). */
export const payoutBatchQueryOptions = (batchId: string) => queryOptions({ queryKey: [...payoutsRootKey, 'batch', batchId] as const, queryFn: () => getPayoutBatch(batchId) });

export function usePayoutBatch(batchId: string | null) {
  return useQuery({ ...payoutBatchQueryOptions(batchId ?? ''), enabled: batchId !== null });
}
