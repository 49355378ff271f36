import { qs } from '@/lib/api-client';
import type { AdminInvoiceFilters } from './get-invoices';

/** The CSV of the filtered invoices, downloaded by the browser (Content-Disposition attachment). */
export function invoicesExportUrl(filters: AdminInvoiceFilters): string {
  return `/api/invoices/export.csv${qs({ ...filters })}`;
}

export function fiscalReceiptUrl(invoiceId: string): string {
  return `/api/invoices/${invoiceId}/fiscal-receipt`;
}

export function invoiceFileUrl(fileId: string): string {
  return `/api/files/${fileId}`;
}
