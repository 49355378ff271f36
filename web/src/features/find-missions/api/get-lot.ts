import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AvailableLot } from '@maillon/common/schemas/lots';
import { api, qs } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export function getLot(technicianId: string, lotId: string): Promise<AvailableLot> {
  return api.get<AvailableLot>(`/api/mission-batches/available-for-application/${lotId}${qs({ technicianId })}`);
}

/** One open lot, for the map's popup (under the lots' prefix: applying refreshes it). */
export const lotQueryOptions = (technicianId: string, lotId: string) =>
  queryOptions({ queryKey: [...queryKeys.availableLots, 'lot', technicianId, lotId] as const, queryFn: () => getLot(technicianId, lotId) });

export function useLot(technicianId: string, lotId: string) {
  return useQuery(lotQueryOptions(technicianId, lotId));
}
