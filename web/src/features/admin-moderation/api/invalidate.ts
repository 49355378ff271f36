import type { QueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { adminMissionsPrefix, moderationKeys } from './keys';

/** After any moderation change: the lists, their counts, the sidebar badges (and "À trier" when a mission appeared). */
export async function invalidateModeration(queryClient: QueryClient, { missions = false } = {}) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: moderationKeys.all }),
    queryClient.invalidateQueries({ queryKey: queryKeys.adminCounts }),
    missions ? queryClient.invalidateQueries({ queryKey: adminMissionsPrefix }) : Promise.resolve(),
  ]);
}
