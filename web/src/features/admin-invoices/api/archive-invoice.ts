import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminInvoice } from '@maillon/common/schemas/money';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { adminInvoicesRootKey } from './get-invoices';

export function archiveInvoice(invoiceId: string): Promise<AdminInvoice> {
  return api.patch<AdminInvoice>(`/api/invoices/${invoiceId}/status`, { status: 'Terminé' });
}

/** Archiver: the invoice becomes "Terminé". */
export function useArchiveInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: archiveInvoice,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminInvoicesRootKey }),
        queryClient.invalidateQueries({ queryKey: queryKeys.adminCounts }),
      ]),
  });
}
