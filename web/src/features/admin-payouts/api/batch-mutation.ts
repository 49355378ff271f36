import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PayoutBatchDetail } from '@maillon/common/schemas/payout-batches';
import { queryKeys } from '@/lib/query-keys';
import { payoutsRootKey } from './keys';

/** Every batch action changes transfers and invoices: it refreshes the batches, the invoices tab and the admin counts. */
export function useBatchMutation<T>(mutationFn: (input: T) => Promise<PayoutBatchDetail>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (batch) => queryClient.setQueryData([...payoutsRootKey, 'batch', batch.id], batch),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: payoutsRootKey }),
        queryClient.invalidateQueries({ queryKey: ['admin', 'invoices'] }),
        queryClient.invalidateQueries({ queryKey: queryKeys.adminCounts }),
      ]),
  });
}
