import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminInvoice, UpdateTransferStatusRequest } from '@maillon/common/schemas/money';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { adminInvoicesRootKey } from './get-invoices';

export function updateTransferStatus(body: UpdateTransferStatusRequest): Promise<AdminInvoice> {
  return api.patch<AdminInvoice>('/api/transfers/status', body);
}

/** Marquer Payée (Effectué) or Refuser (Refus); the server pays at most once whatever the clicks. */
export function useUpdateTransferStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTransferStatus,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminInvoicesRootKey }),
        queryClient.invalidateQueries({ queryKey: queryKeys.adminCounts }),
      ]),
  });
}
