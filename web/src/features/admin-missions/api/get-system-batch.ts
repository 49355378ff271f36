import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminBatch } from '@maillon/common/schemas/admin-lots';
import { api } from '@/lib/api-client';
import { adminMissionsKeys } from './keys';

/** GET /api/mission-batches/system: "Défibrillateurs de missions annulées". */
export function getSystemBatch() {
  return api.get<AdminBatch>('/api/mission-batches/system');
}

export const systemBatchQueryOptions = queryOptions({ queryKey: adminMissionsKeys.systemBatch, queryFn: getSystemBatch });

export function useSystemBatch() {
  return useQuery(systemBatchQueryOptions);
}
