import type { PayoutBatchDetail } from '@maillon/common/schemas/payout-batches';
import { api } from '@/lib/api-client';
import { useBatchMutation } from './batch-mutation';

export function payPayoutBatch(batchId: string): Promise<PayoutBatchDetail> {
  return api.post<PayoutBatchDetail>(`/api/payout-batches/${batchId}/pay`, {});
}

/** After the bank executed the file: every line still « À payer » becomes Effectué, once. */
export function usePayPayoutBatch() {
  return useBatchMutation(payPayoutBatch);
}
