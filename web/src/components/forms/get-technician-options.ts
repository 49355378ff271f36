import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TechnicianOption } from '@maillon/common/schemas/money';
import { PICKER_LIMIT_DEFAULT } from '@maillon/common/schemas/pickers';
import { api, qs } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** The suggestions asked at a time (the server allows up to PICKER_LIMIT_MAX): as many means « précisez la recherche ». */
export const TECHNICIAN_OPTIONS_LIMIT = PICKER_LIMIT_DEFAULT;

/** Whose technicians the picker searches: those with invoices, or those with parcels. */
export type TechnicianOptionsSource = 'invoices' | 'shipments';

const sources = {
  invoices: { path: '/api/invoices/technicians', rootKey: ['admin', 'invoices'] as const },
  shipments: { path: '/api/shipments/admin/technicians', rootKey: queryKeys.adminShipments },
} satisfies Record<TechnicianOptionsSource, { path: string; rootKey: readonly string[] }>;

/** GET /api/invoices/technicians or /api/shipments/admin/technicians: the first technicians (by name) matching `search`. */
export function getTechnicianOptions(source: TechnicianOptionsSource, search: string): Promise<TechnicianOption[]> {
  return api.get<TechnicianOption[]>(`${sources[source].path}${qs({ search: search.trim(), limit: TECHNICIAN_OPTIONS_LIMIT })}`);
}

// Under each screen's own key, so what refreshes its invoices or parcels refreshes the picker too.
export const technicianOptionsQueryOptions = (source: TechnicianOptionsSource, search: string) =>
  queryOptions({
    queryKey: [...sources[source].rootKey, 'technicians', { search: search.trim() }] as const,
    queryFn: () => getTechnicianOptions(source, search),
    placeholderData: keepPreviousData,
  });

export function useTechnicianOptions(source: TechnicianOptionsSource, search: string, { enabled }: { enabled: boolean }) {
  return useQuery({ ...technicianOptionsQueryOptions(source, search), enabled });
}
