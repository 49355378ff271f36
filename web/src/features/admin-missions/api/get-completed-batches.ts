import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { CompletedBatch } from '@maillon/common/schemas/admin-lots';
import { getPage, qs } from '@/lib/api-client';
import { adminMissionsKeys } from './keys';

type Params = { search?: string | undefined; limit: number; offset: number };

/** GET /api/mission-batches/completed: finished lots with their missions and recruited technician. */
export function getCompletedBatches(params: Params) {
  return getPage<CompletedBatch>(`/api/mission-batches/completed${qs(params)}`);
}

export function completedBatchesQueryOptions(params: Params) {
  return queryOptions({
    queryKey: adminMissionsKeys.completedBatches(params),
    queryFn: () => getCompletedBatches(params),
    placeholderData: keepPreviousData,
  });
}

export function useCompletedBatches(params: Params, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...completedBatchesQueryOptions(params), enabled });
}
