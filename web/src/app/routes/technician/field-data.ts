import { useEffect } from 'react';
import { useIsRestoring, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useOnlineStatus } from '@/hooks/use-online-status';
import { queryKeys } from '@/lib/query-keys';

/**
 * The reads a technician needs in a dead zone, kept on the phone for as long as it is signed in (decision 023): its
 * lots and their work views, parcels, counts, and the visit reports of its devices (`['visit-reports', missionId]`).
 */
export function fieldDataKeys(technicianId: string): QueryKey[] {
  return [queryKeys.applications(technicianId), queryKeys.parcels(technicianId), queryKeys.technicianCounts(technicianId), ['visit-reports']];
}

/**
 * Online, once the dashboard has shown, it fetches the field's data (prefetch-field-data.ts, its own chunk) so the
 * basement visit has it even if the technician never opened those screens.
 */
export function useFieldData(technicianId: string): void {
  const client = useQueryClient();
  const restoring = useIsRestoring();
  const online = useOnlineStatus();
  useEffect(() => {
    if (restoring || !online) return;
    let cancelled = false;
    void import('./prefetch-field-data')
      .then(({ prefetchFieldData }) => prefetchFieldData(client, technicianId, () => cancelled))
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [client, online, restoring, technicianId]);
}
