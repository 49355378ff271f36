import { Check, ExternalLink, Mail, MapPin, Pencil, Phone, RotateCcw, X } from 'lucide-react';
import { formatDepartment } from '@maillon/common/departments';
import { formatDate } from '@maillon/common/format';
import type { Job } from '@maillon/common/schemas/moderation';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { toast, toastError } from '@/components/ui/use-toast';
import { useSetJobStatus } from '../api/set-job-status';
import { useValidateJob } from '../api/validate-job';

const SOURCE_LABELS: Record<string, string> = {
  manual: 'Ajout manuel',
  ingest: 'Outil de suggestion',
  geodae: 'Géo’DAE',
  csv: 'Import CSV',
};

/** One visit to moderate: Valider / Modifier / Refuser while pending, Restaurer once refused. */
export function JobCard({ job, onEdit }: { job: Job; onEdit: (job: Job) => void }) {
  const validate = useValidateJob();
  const setStatus = useSetJobStatus();
  const busy = validate.isPending || setStatus.isPending;

  const onValidate = async () => {
    try {
      const mission = await validate.mutateAsync(job.id);
      toast({ title: 'Mission créée avec succès', description: `« ${mission.title} » est dans À trier.`, variant: 'success' });
    } catch (error) {
      toastError('Erreur lors de la validation', error);
    }
  };

  const onStatus = async (status: 'refused' | 'pending') => {
    try {
      await setStatus.mutateAsync({ id: job.id, status });
      toast({ title: status === 'refused' ? 'Mission refusée' : 'Mission restaurée', variant: 'success' });
    } catch (error) {
      toastError(status === 'refused' ? 'Erreur lors du refus' : 'Erreur lors de la restauration', error);
    }
  };

  return (
    <Card className="grid gap-3 p-4" role="article" aria-labelledby={`job-${job.id}-title`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1">
          <h3 id={`job-${job.id}-title`} className="font-semibold leading-tight">
            {job.clientName}
          </h3>
          <p className="text-sm text-muted-foreground">
            N° de série <span className="font-medium text-foreground">{job.serialNumber}</span> · {job.defibrillatorModel}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <Badge variant="info">{job.visitType}</Badge>
          <Badge variant="outline">{formatDepartment(job.department)}</Badge>
          <Badge variant="secondary">{SOURCE_LABELS[job.source] ?? job.source}</Badge>
        </div>
      </div>
      <dl className="grid gap-1.5 text-sm sm:grid-cols-2">
        <div className="flex items-start gap-2">
          <MapPin className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          <dt className="sr-only">Adresse</dt>
          <dd>{job.address}</dd>
        </div>
        <div className="flex items-start gap-2">
          <ExternalLink className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          <dt className="sr-only">Lien de complétion</dt>
          <dd className="min-w-0 truncate">
            <a href={job.completionLink} target="_blank" rel="noopener noreferrer" className="text-primary underline-offset-4 hover:underline">
              {job.completionLink}
            </a>
          </dd>
        </div>
        {job.telSite ? (
          <div className="flex items-center gap-2">
            <Phone className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
            <dt className="sr-only">Téléphone site</dt>
            <dd>{job.telSite}</dd>
          </div>
        ) : null}
        {job.emailSite ? (
          <div className="flex items-center gap-2">
            <Mail className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
            <dt className="sr-only">Email site</dt>
            <dd>{job.emailSite}</dd>
          </div>
        ) : null}
      </dl>
      {job.observations ? <p className="rounded-md bg-muted px-3 py-2 text-sm">{job.observations}</p> : null}
      <div className="flex flex-wrap items-center justify-between gap-2 border-t pt-3">
        <p className="text-xs text-muted-foreground">Reçue le {formatDate(job.createdAt)}</p>
        <div className="flex flex-wrap gap-2">
          {job.status === 'pending' ? (
            <>
              <Button size="sm" variant="success" onClick={onValidate} loading={validate.isPending} disabled={busy}>
                <Check aria-hidden="true" /> Valider
              </Button>
              <Button size="sm" variant="outline" onClick={() => onEdit(job)} disabled={busy}>
                <Pencil aria-hidden="true" /> Modifier
              </Button>
              <Button size="sm" variant="outline" onClick={() => onStatus('refused')} loading={setStatus.isPending} disabled={busy}>
                <X aria-hidden="true" /> Refuser
              </Button>
            </>
          ) : (
            <Button size="sm" variant="outline" onClick={() => onStatus('pending')} loading={setStatus.isPending}>
              <RotateCcw aria-hidden="true" /> Restaurer
            </Button>
          )}
        </div>
      </div>
    </Card>
  );
}
