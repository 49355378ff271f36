import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GeodaeExportCheck } from '@maillon/common/schemas/devices';
import { api, qs } from '@/lib/api-client';
import { adminDevicesQueryKey } from './get-devices';

/** The file's address: a plain download link (the browser sends the session cookie). */
export function geodaeExportHref(range: { from: string; to: string }): string {
  return `/api/devices/geodae-export${qs(range)}`;
}

export function checkGeodaeExport(range: { from: string; to: string }): Promise<GeodaeExportCheck> {
  return api.get<GeodaeExportCheck>(`/api/devices/geodae-export/check${qs(range)}`);
}

export function useGeodaeExportCheck(range: { from: string; to: string } | null) {
  return useQuery({
    ...queryOptions({ queryKey: [...adminDevicesQueryKey, 'geodae', range] as const, queryFn: () => checkGeodaeExport(range!) }),
    enabled: Boolean(range),
  });
}
