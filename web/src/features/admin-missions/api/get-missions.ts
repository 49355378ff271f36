import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Mission } from '@maillon/common/schemas/admin-missions';
import { getPage, qs } from '@/lib/api-client';
import { adminMissionsKeys, type MissionFilters } from './keys';

/** GET /api/missions: searched, filtered and paged by the server. */
export function getMissions(filters: MissionFilters) {
  return getPage<Mission>(`/api/missions${qs({ ...filters })}`);
}

export function missionsQueryOptions(filters: MissionFilters) {
  return queryOptions({ queryKey: adminMissionsKeys.missionList(filters), queryFn: () => getMissions(filters), placeholderData: keepPreviousData });
}

export function useMissions(filters: MissionFilters, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...missionsQueryOptions(filters), enabled });
}
