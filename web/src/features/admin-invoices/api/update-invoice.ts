import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminInvoice, UpdateInvoiceRequest } from '@maillon/common/schemas/money';
import { api } from '@/lib/api-client';
import { adminInvoicesRootKey } from './get-invoices';

export function updateInvoice({ invoiceId, body }: { invoiceId: string; body: UpdateInvoiceRequest }): Promise<AdminInvoice> {
  return api.put<AdminInvoice>(`/api/invoices/${invoiceId}`, body);
}

/** Edit invoice modal (description, reference, dates). */
export function useUpdateInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateInvoice,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminInvoicesRootKey }),
  });
}
