import { useParams } from 'react-router';
import { QueryProvider } from '@/app/query-provider';
import { useToastRegion } from '@/components/ui/toast-outlet';
import { paths } from '@/config/paths';
import { VisitReportScreen } from '@/features/visit-reports/components/visit-report-screen';
import { usePageMeta } from '@/hooks/use-page-meta';
import { OfflineProvider } from '@/lib/offline/offline-provider';
import { fieldDataKeys } from './field-data';
import { RequireRole } from '../require-role';

/**
 * « Rapport de visite »: full screen on the phone, opened from a device of the Recruté view (issue 16). Inside the
 * offline layer like the dashboard (decision 023): it opens from the phone's data and its writes are queued.
 */
export function VisitReportRoute() {
  const { missionId = '' } = useParams();
  usePageMeta({ title: 'Rapport de visite' });
  useToastRegion();
  return (
    <QueryProvider>
      <RequireRole role="technician" loginPath={paths.technician.login.getHref()}>
        {(session) =>
          session.technician ? (
            <OfflineProvider userId={session.user.id} technicianId={session.technician.id} keep={fieldDataKeys(session.technician.id)}>
              <VisitReportScreen missionId={missionId} technicianId={session.technician.id} backHref={paths.technician.dashboard.getHref({ tab: 'missions' })} />
            </OfflineProvider>
          ) : null
        }
      </RequireRole>
    </QueryProvider>
  );
}
