import { queryOptions, useQuery } from '@tanstack/react-query';
import type { InvoiceTechnicianOption } from '@maillon/common/schemas/money';
import { api } from '@/lib/api-client';
import { adminInvoicesRootKey } from './get-invoices';

export function getInvoiceTechnicians(): Promise<InvoiceTechnicianOption[]> {
  return api.get<InvoiceTechnicianOption[]>('/api/invoices/technicians');
}

/** The technicians that have invoices (the technician filter). */
export const invoiceTechniciansQueryOptions = () =>
  queryOptions({ queryKey: [...adminInvoicesRootKey, 'technicians'] as const, queryFn: getInvoiceTechnicians });

export function useInvoiceTechnicians() {
  return useQuery(invoiceTechniciansQueryOptions());
}
