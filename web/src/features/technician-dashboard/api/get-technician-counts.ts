import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface TechnicianCounts {
  formation: { total: number; read: number };
  findMissions: number;
  applications: number;
  revenue: number;
  packages: number;
}

export const technicianCountsQueryKey = queryKeys.technicianCounts;

export const technicianCountsQueryOptions = (technicianId: string) =>
  queryOptions({
    queryKey: technicianCountsQueryKey(technicianId),
    queryFn: () => api.get<TechnicianCounts>(`/api/technicians/${technicianId}/counts`),
    staleTime: 30_000,
  });

export function useTechnicianCounts(technicianId: string) {
  return useQuery(technicianCountsQueryOptions(technicianId));
}
