import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminTechnician, TechnicianSubTab } from '@maillon/common/schemas/admin-technicians';
import { getPage, qs } from '@/lib/api-client';

export const TECHNICIANS_PAGE_SIZE = 10;

/** Every admin technician read lives under this prefix (lists and sub-tab counts). */
export const adminTechniciansQueryKey = ['admin', 'technicians'] as const;

export interface TechnicianFilters {
  status: TechnicianSubTab;
  search: string;
  department: string;
  offset: number;
}

export function getTechnicians(filters: TechnicianFilters) {
  return getPage<AdminTechnician>(
    `/api/technicians/enhanced${qs({ ...filters, search: filters.search.trim(), limit: TECHNICIANS_PAGE_SIZE })}`,
  );
}

export const techniciansQueryOptions = (filters: TechnicianFilters) =>
  queryOptions({
    queryKey: [...adminTechniciansQueryKey, 'list', filters] as const,
    queryFn: () => getTechnicians(filters),
    placeholderData: keepPreviousData,
  });

export function useTechnicians(filters: TechnicianFilters) {
  return useQuery(techniciansQueryOptions(filters));
}
