import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface TechnicianCounts {
  formation: { total: number; read: number };
  findMissions: number;
  applications: number;
  revenue: number;
  packages: number;
}

export const technicianCountsQueryKey = (technicianId: string) => ['technicians', technicianId, 'counts'] as const;

export const technicianCountsQueryOptions = (technicianId: string) =>
  queryOptions({
    queryKey: technicianCountsQueryKey(technicianId),
    queryFn: () => api.get<TechnicianCounts>(`/api/technicians/${technicianId}/counts`),
    staleTime: 30_000,
  });

export function useTechnicianCounts(technicianId: string) {
  return useQuery(technicianCountsQueryOptions(technicianId));
}
