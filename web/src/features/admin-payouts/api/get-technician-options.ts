import { queryOptions, useQuery } from '@tanstack/react-query';
import type { InvoiceTechnicianOption } from '@maillon/common/schemas/money';
import { api } from '@/lib/api-client';
import { payoutsRootKey } from './keys';

export function getTechnicianOptions(): Promise<InvoiceTechnicianOption[]> {
  return api.get<InvoiceTechnicianOption[]>('/api/invoices/technicians');
}

/** The technicians that have invoices: those a statement can be made for. */
export const technicianOptionsQueryOptions = () => queryOptions({ queryKey: [...payoutsRootKey, 'technicians'] as const, queryFn: getTechnicianOptions });

export function useTechnicianOptions() {
  return useQuery(technicianOptionsQueryOptions());
}
