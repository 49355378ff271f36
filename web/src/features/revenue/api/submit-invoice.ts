import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SubmitInvoiceResponse } from '@maillon/common/schemas/money';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { revenueQueryKey } from './get-invoices';

export interface SubmitInvoiceInput {
  invoiceId: string;
  reference: string;
  /** The validated amount the technician certifies, in euros. */
  amountCertified: number;
  file: File;
}

export function submitInvoice({ invoiceId, reference, amountCertified, file }: SubmitInvoiceInput): Promise<SubmitInvoiceResponse> {
  const form = new FormData();
  form.set('reference', reference);
  form.set('amount_certified', amountCertified.toFixed(2));
  form.set('invoice_file', file, file.name);
  return api.post<SubmitInvoiceResponse>(`/api/invoice/${invoiceId}/submit`, form);
}

/** Submits the invoice, then re-fetches the invoices, transfers, totals and the tab badge. */
export function useSubmitInvoice(technicianId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitInvoice,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: revenueQueryKey(technicianId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.technicianCounts(technicianId) }),
      ]),
  });
}
