import type { CreatePayoutBatchRequest, PayoutBatchDetail } from '@maillon/common/schemas/payout-batches';
import { api } from '@/lib/api-client';
import { useBatchMutation } from './batch-mutation';

export function createPayoutBatch(body: CreatePayoutBatchRequest): Promise<PayoutBatchDetail> {
  return api.post<PayoutBatchDetail>('/api/payout-batches', body);
}

/** Makes a batch of the chosen transfers (a retry answers the same batch). */
export function useCreatePayoutBatch() {
  return useBatchMutation(createPayoutBatch);
}
