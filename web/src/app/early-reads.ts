import { availableLotsPath, NO_LOT_FILTERS } from '@/features/find-missions/api/available-lots-path';
import { ADMIN_DASHBOARD_PATHS, TECHNICIAN_DASHBOARD_PATHS } from '@/config/paths';
import { startEarlyRead } from '@/lib/early-reads';
import { readStoredSession } from '@/lib/session';

/**
 * First content (issue 10): on a dashboard address, the entry asks for the session — and, on the technician's lots
 * tab, for the first page of lots as soon as the stored or confirmed session names the technician — while the
 * dashboard's code is still loading. The api client then takes these answers instead of asking again (lib/early-reads.ts).
 */
export function startEarlyReads(location: Pick<Location, 'pathname' | 'search'>): void {
  const technician = TECHNICIAN_DASHBOARD_PATHS.includes(location.pathname);
  if (!technician && !ADMIN_DASHBOARD_PATHS.includes(location.pathname)) return;
  const me = startEarlyRead('/api/auth/me');
  const params = new URLSearchParams(location.search);
  if (!technician || (params.get('tab') ?? 'find-missions') !== 'find-missions' || params.has('search')) return;
  // A returning technician's browser remembers who it is: the lots are asked for at once, ahead of the page's code.
  const stored = readStoredSession()?.technician?.id;
  if (stored) {
    startEarlyRead(availableLotsPath(stored, NO_LOT_FILTERS, 0));
    return;
  }
  me.then((response) => (response.ok ? (response.clone().json() as Promise<{ technician?: { id: string } | null }>) : null))
    .then((session) => {
      if (session?.technician?.id) startEarlyRead(availableLotsPath(session.technician.id, NO_LOT_FILTERS, 0));
    })
    .catch(() => undefined);
}
