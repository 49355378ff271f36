import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApplicationWork } from '@maillon/common/schemas/field-work';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export function getApplicationWork(applicationId: string): Promise<ApplicationWork> {
  return api.get<ApplicationWork>(`/api/applications/${applicationId}/work`);
}

/** Under the technician's applications prefix: refreshing the applications also refreshes the work view. */
export const applicationWorkQueryKey = (technicianId: string, applicationId: string) =>
  [...queryKeys.applications(technicianId), 'work', applicationId] as const;

export const applicationWorkQueryOptions = (technicianId: string, applicationId: string) =>
  queryOptions({
    queryKey: applicationWorkQueryKey(technicianId, applicationId),
    queryFn: () => getApplicationWork(applicationId),
  });

export function useApplicationWork(technicianId: string, applicationId: string) {
  return useQuery(applicationWorkQueryOptions(technicianId, applicationId));
}
