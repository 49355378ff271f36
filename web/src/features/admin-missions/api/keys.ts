import type { QueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';

export interface MissionFilters {
  search?: string | undefined;
  batchId?: string | undefined;
  unbatched?: boolean | undefined;
  status?: 'draft' | 'active' | 'completed' | 'cancelled' | undefined;
  limit: number;
  offset: number;
}

/** Query keys of the missions & lots screens, all under ['admin', ...] (the moderation tab refreshes 'missions' by key). */
export const adminMissionsKeys = {
  missions: ['admin', 'missions'] as const,
  missionList: (filters: MissionFilters) => ['admin', 'missions', filters] as const,
  batches: ['admin', 'mission-batches'] as const,
  activeBatches: (params: { search?: string | undefined; limit: number; offset: number }) => ['admin', 'mission-batches', 'active', params] as const,
  completedBatches: (params: { search?: string | undefined; limit: number; offset: number }) => ['admin', 'mission-batches', 'completed', params] as const,
  systemBatch: ['admin', 'mission-batches', 'system'] as const,
  applications: ['admin', 'applications'] as const,
  batchApplications: (batchId: string) => ['admin', 'applications', batchId] as const,
};

export const UNSORTED_PAGE_SIZE = 50;
export const LOTS_PAGE_SIZE = 20;
export const LOT_MISSIONS_PAGE_SIZE = 100;

/** Missions, lots (figures) and the sidebar badges move together after any organising change. */
export async function invalidateMissionsAndLots(queryClient: QueryClient) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: adminMissionsKeys.missions }),
    queryClient.invalidateQueries({ queryKey: adminMissionsKeys.batches }),
    queryClient.invalidateQueries({ queryKey: queryKeys.adminCounts }),
  ]);
}
