import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApplicationWithTechnician } from '@maillon/common/schemas/admin-missions';
import { api, qs } from '@/lib/api-client';
import { adminMissionsKeys } from './keys';

/** GET /api/applications/with-technicians?batchId=: the ATS list of a lot. */
export function getBatchApplications(batchId: string) {
  return api.get<ApplicationWithTechnician[]>(`/api/applications/with-technicians${qs({ batchId, limit: 100 })}`);
}

export function batchApplicationsQueryOptions(batchId: string) {
  return queryOptions({ queryKey: adminMissionsKeys.batchApplications(batchId), queryFn: () => getBatchApplications(batchId) });
}

export function useBatchApplications(batchId: string) {
  return useQuery(batchApplicationsQueryOptions(batchId));
}
