import { qs } from '@/lib/api-client';

/** Downloads the browser makes itself (cookie session, Content-Disposition attachment). */
export const sepaFileUrl = (batchId: string) => `/api/payout-batches/${batchId}/sepa.xml`;
export const annualStatementUrl = (technicianId: string, year: number) => `/api/technician/${technicianId}/statements/annual.pdf${qs({ year })}`;
export const accountingExportUrl = (from: string, to: string) => `/api/payments/accounting.csv${qs({ from, to })}`;
