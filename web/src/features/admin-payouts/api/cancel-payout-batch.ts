import type { PayoutBatchDetail } from '@maillon/common/schemas/payout-batches';
import { api } from '@/lib/api-client';
import { useBatchMutation } from './batch-mutation';

export function cancelPayoutBatch(batchId: string): Promise<PayoutBatchDetail> {
  return api.post<PayoutBatchDetail>(`/api/payout-batches/${batchId}/cancel`, {});
}

/** A batch never sent to the bank: its transfers wait again. */
export function useCancelPayoutBatch() {
  return useBatchMutation(cancelPayoutBatch);
}
