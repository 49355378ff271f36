import { useMutation } from '@tanstack/react-query';
import type { InvoiceInspection } from '@maillon/common/schemas/e-invoice';
import { api } from '@/lib/api-client';

/**
 * Sends the chosen PDF to the server, which reads its Factur-X data and checks it without storing anything: the
 * answer pre-fills the reference and says what differs (decision 021). The PDF parser stays on the server, so the
 * technician's tab downloads nothing more.
 */
export function inspectInvoice({ invoiceId, file }: { invoiceId: string; file: File }): Promise<InvoiceInspection> {
  const form = new FormData();
  form.set('invoice_file', file, file.name);
  return api.post<InvoiceInspection>(`/api/invoice/${invoiceId}/inspect`, form);
}

export function useInspectInvoice() {
  return useMutation({ mutationFn: inspectInvoice });
}
