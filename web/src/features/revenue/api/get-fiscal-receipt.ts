/**
 * The fiscal receipt is a PDF the browser opens itself in a new window (cookie session, Content-Disposition inline),
 * through a plain link so no popup blocker gets in the way.
 */
export function fiscalReceiptUrl(invoiceId: string): string {
  return `/api/invoices/${invoiceId}/fiscal-receipt`;
}
