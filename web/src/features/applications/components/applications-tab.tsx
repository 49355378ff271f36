import { useSearchParams } from 'react-router';
import { Inbox } from 'lucide-react';
import { APPLICATION_PILLS, type ApplicationPill } from '@maillon/common/enums';
import type { ApplicationPillCounts } from '@maillon/common/schemas/applications';
import { PageHeader } from '@/components/layout/dashboard-shell';
import { Button } from '@/components/ui/button';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/feedback';
import { Pills } from '@/components/ui/pills';
import type { TechnicianTabProps } from '@/types/tabs';
import { useApplicationStatusCounts } from '../api/get-application-status-counts';
import { useApplications } from '../api/get-applications';
import { ApplicationCard } from './application-card';
import { RecruitedMission } from './recruited-mission';

function isPill(value: string | null): value is ApplicationPill {
  return value !== null && (APPLICATION_PILLS as readonly string[]).includes(value);
}

/** Without a choice in the address: Recruté on the missions tab, otherwise the first pill that has something to show. */
function defaultPill(tab: string | null, counts: ApplicationPillCounts | undefined): ApplicationPill {
  if (tab === 'missions' || !counts) return 'Recruté';
  return APPLICATION_PILLS.find((pill) => counts[pill] > 0) ?? 'Recruté';
}

function ApplicationsList({ technicianId, status, technician }: { technicianId: string; status: ApplicationPill } & TechnicianTabProps) {
  const applications = useApplications(technicianId, status);
  if (applications.isPending) {
    return (
      <div className="grid gap-3" aria-busy="true">
        <Skeleton className="h-24" />
        <Skeleton className="h-24" />
      </div>
    );
  }
  if (applications.isError) return <ErrorState error={applications.error} />;
  const items = applications.data.pages.flatMap((page) => page.items);
  if (items.length === 0) return <EmptyState icon={<Inbox />} title={`Aucune candidature avec le statut "${status}"`} />;
  return (
    <>
      <ul className="grid gap-3" aria-label={`Candidatures : ${status}`}>
        {items.map((application) =>
          application.status === 'Recruté' ? (
            <li key={application.id} className="min-w-0">
              <RecruitedMission application={application} technician={technician} />
            </li>
          ) : (
            <ApplicationCard key={application.id} application={application} />
          ),
        )}
      </ul>
      {applications.hasNextPage ? (
        <div className="mt-4 flex justify-center">
          <Button variant="outline" size="lg" loading={applications.isFetchingNextPage} onClick={() => void applications.fetchNextPage()}>
            Afficher plus
          </Button>
        </div>
      ) : null}
    </>
  );
}

export function ApplicationsTab({ technician }: TechnicianTabProps) {
  const [searchParams, setSearchParams] = useSearchParams();
  const counts = useApplicationStatusCounts(technician.id);
  const chosen = searchParams.get('status');
  const status = isPill(chosen) ? chosen : defaultPill(searchParams.get('tab'), counts.data);

  const choose = (pill: ApplicationPill) => {
    const next = new URLSearchParams(searchParams);
    next.set('status', pill);
    setSearchParams(next, { replace: true });
  };

  return (
    <section>
      <PageHeader title="Candidatures & Missions" description="Suivez vos candidatures et les lots sur lesquels vous êtes recruté." />
      <Pills
        label="Statut des candidatures"
        className="mb-4"
        value={status}
        onChange={choose}
        options={APPLICATION_PILLS.map((pill) => ({ value: pill, label: pill, count: counts.data?.[pill] }))}
      />
      {counts.isPending && !isPill(chosen) && searchParams.get('tab') !== 'missions' ? (
        <Skeleton className="h-24" />
      ) : (
        <ApplicationsList technicianId={technician.id} status={status} technician={technician} />
      )}
    </section>
  );
}
