import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TechnicianCounts } from '@maillon/common/schemas/admin-technicians';
import { api, qs } from '@/lib/api-client';
import { adminTechniciansQueryKey } from './get-technicians';

export function getTechnicianStatusCounts(filters: { search: string; department: string }) {
  return api.get<TechnicianCounts>(
    `/api/technicians/status-counts${qs({ search: filters.search.trim(), department: filters.department })}`,
  );
}

/** Counts of the À modérer / Actifs / Désactivés sub-tabs under the current search and department. */
export const technicianStatusCountsQueryOptions = (filters: { search: string; department: string }) =>
  queryOptions({
    queryKey: [...adminTechniciansQueryKey, 'counts', filters] as const,
    queryFn: () => getTechnicianStatusCounts(filters),
    placeholderData: keepPreviousData,
  });

export function useTechnicianStatusCounts(filters: { search: string; department: string }) {
  return useQuery(technicianStatusCountsQueryOptions(filters));
}
