import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApplicationPillCounts } from '@maillon/common/schemas/applications';
import { api, qs } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export function getApplicationStatusCounts(technicianId: string): Promise<ApplicationPillCounts> {
  return api.get<ApplicationPillCounts>(`/api/applications/status-counts${qs({ technicianId })}`);
}

/** How many applications sit under each pill (Annulé counted under Refusé). */
export const applicationStatusCountsQueryOptions = (technicianId: string) =>
  queryOptions({
    queryKey: [...queryKeys.applications(technicianId), 'status-counts'] as const,
    queryFn: () => getApplicationStatusCounts(technicianId),
  });

export function useApplicationStatusCounts(technicianId: string) {
  return useQuery(applicationStatusCountsQueryOptions(technicianId));
}
