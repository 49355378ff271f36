import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminBatch } from '@maillon/common/schemas/admin-lots';
import { getPage, qs } from '@/lib/api-client';
import { adminMissionsKeys } from './keys';

type Params = { search?: string | undefined; limit: number; offset: number };

/** GET /api/mission-batches: the active lots with their server-computed figures. */
export function getBatches(params: Params) {
  return getPage<AdminBatch>(`/api/mission-batches${qs(params)}`);
}

export function batchesQueryOptions(params: Params) {
  return queryOptions({ queryKey: adminMissionsKeys.activeBatches(params), queryFn: () => getBatches(params), placeholderData: keepPreviousData });
}

export function useBatches(params: Params, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...batchesQueryOptions(params), enabled });
}
