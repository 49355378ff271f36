import type { PayoutBatchDetail } from '@maillon/common/schemas/payout-batches';
import { api } from '@/lib/api-client';
import { useBatchMutation } from './batch-mutation';

export function refusePayoutLine({ batchId, lineId }: { batchId: string; lineId: string }): Promise<PayoutBatchDetail> {
  return api.post<PayoutBatchDetail>(`/api/payout-batches/${batchId}/lines/${lineId}/refuse`, {});
}

/** The bank refused one transfer: transfer « Refus », invoice back to the technician. */
export function useRefusePayoutLine() {
  return useBatchMutation(refusePayoutLine);
}
