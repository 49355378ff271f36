import { useState } from 'react';
import { ClipboardCheck, FileUp, Plus } from 'lucide-react';
import type { JobStatus } from '@maillon/common/enums';
import type { Job } from '@maillon/common/schemas/moderation';
import { PageHeader } from '@/components/layout/dashboard-shell';
import { Button } from '@/components/ui/button';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/feedback';
import { Pager } from '@/components/ui/pager';
import { Pills } from '@/components/ui/pills';
import { useJobCounts } from '../api/get-job-counts';
import { useJobs } from '../api/get-jobs';
import { JOBS_PAGE_SIZE } from '../api/keys';
import { CsvImportDialog } from './csv-import-dialog';
import { JobCard } from './job-card';
import { VisitFormDialog } from './visit-form-dialog';

const EMPTY_TEXT: Record<JobStatus, string> = {
  pending: 'Aucune mission à modérer',
  refused: 'Aucune mission refusée',
};

/** Suggestions: the visits to moderate (À modérer / Refusées), manual addition and CSV import. */
export function ModerationTab() {
  const [status, setStatus] = useState<JobStatus>('pending');
  const [offset, setOffset] = useState(0);
  const [editing, setEditing] = useState<Job | undefined>();
  const [formOpen, setFormOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  const counts = useJobCounts();
  const jobs = useJobs(status, { offset, limit: JOBS_PAGE_SIZE });
  // The last visit of a page was validated or refused: show the previous page instead of an empty one.
  if (jobs.data && !jobs.isPlaceholderData && jobs.data.items.length === 0 && offset > 0) {
    setOffset(Math.max(0, offset - JOBS_PAGE_SIZE));
  }

  const openForm = (job?: Job) => {
    setEditing(job);
    setFormOpen(true);
  };

  return (
    <section className="grid gap-5">
      <PageHeader
        title="Défibrillateurs à modérer"
        description="Validez les visites proposées : elles deviennent des missions à organiser en lots."
        actions={
          <>
            <Button variant="outline" onClick={() => setImportOpen(true)}>
              <FileUp aria-hidden="true" /> Importer un CSV
            </Button>
            <Button onClick={() => openForm()}>
              <Plus aria-hidden="true" /> Ajout Manuel
            </Button>
          </>
        }
      />
      <Pills
        label="Statut des visites"
        value={status}
        onChange={(value) => {
          setStatus(value);
          setOffset(0);
        }}
        options={[
          { value: 'pending', label: 'À modérer', count: counts.data?.pending },
          { value: 'refused', label: 'Refusées', count: counts.data?.refused },
        ]}
      />

      {jobs.isPending ? (
        <div className="grid gap-3" aria-busy="true" aria-label="Chargement des visites">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-36" />
          ))}
        </div>
      ) : jobs.isError ? (
        <ErrorState error={jobs.error} />
      ) : jobs.data.items.length === 0 ? (
        <EmptyState icon={<ClipboardCheck />} title={EMPTY_TEXT[status]} />
      ) : (
        <div className="grid gap-3">
          {jobs.data.items.map((job) => (
            <JobCard key={job.id} job={job} onEdit={openForm} />
          ))}
          <Pager offset={offset} limit={JOBS_PAGE_SIZE} total={jobs.data.total} onChange={setOffset} label="Pages des visites" />
        </div>
      )}

      <VisitFormDialog open={formOpen} onOpenChange={setFormOpen} job={editing} />
      <CsvImportDialog open={importOpen} onOpenChange={setImportOpen} />
    </section>
  );
}
