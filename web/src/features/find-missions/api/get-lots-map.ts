import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AvailableLotsMap } from '@maillon/common/schemas/lots';
import { api, qs } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { AvailableLotsFilters } from './available-lots-path';

type MapFilters = Omit<AvailableLotsFilters, 'sort'>;

export function getLotsMap(technicianId: string, { department, tag, search, radius }: MapFilters): Promise<AvailableLotsMap> {
  return api.get<AvailableLotsMap>(`/api/mission-batches/available-for-application/map${qs({ technicianId, department, tag, search, radius })}`);
}

/** One marker per open lot of the filters (under the lots' prefix: applying refreshes it too). */
export const lotsMapQueryOptions = (technicianId: string, filters: MapFilters) =>
  queryOptions({
    queryKey: [...queryKeys.availableLots, 'map', technicianId, filters] as const,
    queryFn: () => getLotsMap(technicianId, filters),
    placeholderData: keepPreviousData,
  });

export function useLotsMap(technicianId: string, filters: MapFilters) {
  return useQuery(lotsMapQueryOptions(technicianId, filters));
}
