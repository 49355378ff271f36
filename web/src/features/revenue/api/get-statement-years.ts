import { queryOptions, useQuery } from '@tanstack/react-query';
import type { StatementYear } from '@maillon/common/schemas/payout-batches';
import { api } from '@/lib/api-client';
import { revenueQueryKey } from './get-invoices';

export function getStatementYears(technicianId: string): Promise<StatementYear[]> {
  return api.get<StatementYear[]>(`/api/technician/${technicianId}/statements`);
}

/** The years the technician was paid in (a yearly statement each), refreshed with the rest of the revenue tab. */
export const statementYearsQueryOptions = (technicianId: string) =>
  queryOptions({ queryKey: [...revenueQueryKey(technicianId), 'statements'] as const, queryFn: () => getStatementYears(technicianId) });

export function useStatementYears(technicianId: string) {
  return useQuery(statementYearsQueryOptions(technicianId));
}

/** The PDF, downloaded by the browser itself (cookie session, Content-Disposition attachment). */
export function annualStatementUrl(technicianId: string, year: number): string {
  return `/api/technician/${technicianId}/statements/annual.pdf?year=${year}`;
}
