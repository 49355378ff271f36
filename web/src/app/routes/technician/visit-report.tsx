import { useParams } from 'react-router';
import { QueryProvider } from '@/app/query-provider';
import { useToastRegion } from '@/components/ui/toast-outlet';
import { paths } from '@/config/paths';
import { VisitReportScreen } from '@/features/visit-reports/components/visit-report-screen';
import { usePageMeta } from '@/hooks/use-page-meta';
import { RequireRole } from '../require-role';

/** « Rapport de visite »: full screen on the phone, opened from a device of the Recruté view (issue 16). */
export function VisitReportRoute() {
  const { missionId = '' } = useParams();
  usePageMeta({ title: 'Rapport de visite' });
  useToastRegion();
  return (
    <QueryProvider>
      <RequireRole role="technician" loginPath={paths.technician.login.getHref()}>
        {(session) =>
          session.technician ? (
            <VisitReportScreen missionId={missionId} technicianId={session.technician.id} backHref={paths.technician.dashboard.getHref({ tab: 'missions' })} />
          ) : null
        }
      </RequireRole>
    </QueryProvider>
  );
}
