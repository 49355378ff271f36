import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminSettings } from '@maillon/common/schemas/settings';
import { api } from '@/lib/api-client';

export const adminSettingsQueryKey = ['admin', 'settings'] as const;

export function getAdminSettings() {
  return api.get<AdminSettings>('/api/admin/settings');
}

/** The running configuration; read afresh each time the tab opens. */
export const adminSettingsQueryOptions = () =>
  queryOptions({ queryKey: adminSettingsQueryKey, queryFn: getAdminSettings, staleTime: 0 });

export function useAdminSettings() {
  return useQuery(adminSettingsQueryOptions());
}
