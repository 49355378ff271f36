import { queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_COUNTS_REFRESH_MS } from '@maillon/common/constants';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface AdminCounts {
  suggestions: number;
  missionsLots: number;
  techniciens: number;
  facturesVirements: number;
  expeditions: number;
  librairie: number;
  /** Devices needing attention (Parc DAE). */
  parcDae: number;
}

export const adminCountsQueryKey = queryKeys.adminCounts;

export function useAdminCounts() {
  return useQuery(
    queryOptions({
      queryKey: adminCountsQueryKey,
      queryFn: () => api.get<AdminCounts>('/api/admin/counts'),
      refetchInterval: ADMIN_COUNTS_REFRESH_MS,
    }),
  );
}
