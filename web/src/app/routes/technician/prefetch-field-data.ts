import type { QueryClient } from '@tanstack/react-query';
import { applicationsQueryOptions } from '@/features/applications/api/get-applications';
import { applicationWorkQueryOptions } from '@/features/applications/api/work-get-application-work';
import { parcelsQueryOptions } from '@/features/packages/api/get-parcels';
import { visitReportQueryOptions } from '@/features/visit-reports/api/get-visit-report';

/**
 * Fetches what the field needs even if the technician does not open it: its Recruté lots with every device (address,
 * site phone, completion link, planned date, comments), each device's visit report (so the report screen opens in a
 * dead zone) and its parcels. The offline layer keeps them in IndexedDB.
 */
export async function prefetchFieldData(client: QueryClient, technicianId: string, isCancelled: () => boolean): Promise<void> {
  const recruited = applicationsQueryOptions(technicianId, 'Recruté');
  await client.prefetchInfiniteQuery(recruited);
  const lots = client.getQueryData(recruited.queryKey);
  if (isCancelled() || !lots) return;
  const ids = lots.pages.flatMap((page) => page.items).filter((application) => application.status === 'Recruté').map((application) => application.id);
  await Promise.all([
    ...ids.map((id) =>
      client.prefetchQuery(applicationWorkQueryOptions(technicianId, id)).then(() => {
        if (isCancelled()) return undefined;
        const work = client.getQueryData(applicationWorkQueryOptions(technicianId, id).queryKey);
        return Promise.all((work?.missions ?? []).map((mission) => client.prefetchQuery(visitReportQueryOptions(mission.id))));
      }),
    ),
    client.prefetchInfiniteQuery(parcelsQueryOptions(technicianId, '')),
  ]);
}
