import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { MissionsMap } from '@maillon/common/schemas/admin-missions';
import { api, qs } from '@/lib/api-client';
import { adminMissionsKeys } from './keys';

export interface MissionsMapParams {
  scope: 'unsorted' | 'all';
  /** The view searched (south, west, north, east); none: everywhere. */
  view?: { south: number; west: number; north: number; east: number } | undefined;
}

/** GET /api/missions/map: « À trier » and the active lots' missions with their position. */
export function getMissionsMap({ scope, view }: MissionsMapParams): Promise<MissionsMap> {
  return api.get<MissionsMap>(`/api/missions/map${qs({ scope, ...view })}`);
}

/** Under the missions' key: organising refreshes the map too. */
export const missionsMapQueryOptions = (params: MissionsMapParams) =>
  queryOptions({ queryKey: [...adminMissionsKeys.missions, 'map', params] as const, queryFn: () => getMissionsMap(params), placeholderData: keepPreviousData });

export function useMissionsMap(params: MissionsMapParams) {
  return useQuery(missionsMapQueryOptions(params));
}
