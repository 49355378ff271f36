import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WorkParts } from '@maillon/common/schemas/parts';
import { api } from '@/lib/api-client';
import { applicationWorkQueryKey } from './work-get-application-work';

export function getApplicationParts(applicationId: string): Promise<WorkParts> {
  return api.get<WorkParts>(`/api/applications/${applicationId}/parts`);
}

/** The parts coming for each device of the lot and their parcel's status (issue 20). */
export const applicationPartsQueryOptions = (technicianId: string, applicationId: string) =>
  queryOptions({
    queryKey: [...applicationWorkQueryKey(technicianId, applicationId), 'parts'] as const,
    queryFn: () => getApplicationParts(applicationId),
  });

export function useApplicationParts(technicianId: string, applicationId: string) {
  return useQuery(applicationPartsQueryOptions(technicianId, applicationId));
}
