import { useState } from 'react';
import { Building2, Check, Flag, Mail, MapPin, Package, Phone, UserX } from 'lucide-react';
import { formatDepartment } from '@maillon/common/departments';
import { RECRUITED_APPLICATION_STATUSES } from '@maillon/common/enums';
import { formatDate, formatEuros } from '@maillon/common/format';
import type { AdminBatch } from '@maillon/common/schemas/admin-lots';
import type { ApplicationWithTechnician } from '@maillon/common/schemas/admin-missions';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { EmptyState, ErrorState, Spinner } from '@/components/ui/feedback';
import { Field } from '@/components/ui/field';
import { Textarea } from '@/components/ui/input';
import { toast, toastError } from '@/components/ui/use-toast';
import { useForceCompleteApplication } from '../api/force-complete-application';
import { useBatchApplications } from '../api/get-applications';
import { useSaveAdminComment } from '../api/save-admin-comment';
import { useSetApplicationStatus } from '../api/set-application-status';

/** Spec 02 §9: the page reloads 1 s after a forced completion. */
const RELOAD_DELAY_MS = 1000;

const SELECTED: readonly string[] = RECRUITED_APPLICATION_STATUSES;
const STATUS_VARIANT: Record<string, 'success' | 'warning' | 'danger' | 'info'> = {
  Recruté: 'success',
  Terminé: 'info',
  'En attente': 'warning',
  pending: 'warning',
  Refusé: 'danger',
  Annulé: 'danger',
};

/** ATS (applicant tracking) for a lot: select one technician, refuse others, comment, force the finish. */
export function AtsDialog({ lot, onOpenChange }: { lot: AdminBatch | null; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={lot !== null} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>Candidatures · {lot?.title}</DialogTitle>
          <DialogDescription>Sélectionnez un technicien pour ce lot : un seul technicien peut être retenu.</DialogDescription>
        </DialogHeader>
        {lot ? <AtsContent lot={lot} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function AtsContent({ lot }: { lot: AdminBatch }) {
  const applications = useBatchApplications(lot.id);
  const forceComplete = useForceCompleteApplication();

  if (applications.isPending) return <Spinner label="Chargement des candidatures..." />;
  if (applications.isError) return <ErrorState error={applications.error} />;
  if (applications.data.length === 0) return <EmptyState title="Aucune candidature pour ce lot" />;

  const recruit = applications.data.find((a) => a.status === 'Recruté');
  const assigned = applications.data.some((a) => SELECTED.includes(a.status));

  const onForceComplete = async () => {
    if (!recruit) return;
    try {
      await forceComplete.mutateAsync({ applicationId: recruit.id, batchId: lot.id });
      toast({ title: 'Mission terminée', description: 'Le lot passe dans Terminés.', variant: 'success' });
      setTimeout(() => window.location.reload(), RELOAD_DELAY_MS);
    } catch (error) {
      toastError('Erreur lors de la complétion', error);
    }
  };

  return (
    <div className="grid gap-4">
      {recruit ? (
        <div className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-success/30 bg-success-soft px-4 py-3">
          <p className="text-sm">
            <strong>
              {recruit.technician.firstName} {recruit.technician.lastName}
            </strong>{' '}
            réalise ce lot · {lot.defibrillatorsDone}/{lot.defibrillatorsSum} défibrillateurs traités
          </p>
          <ConfirmDialog
            trigger={
              <Button size="sm" loading={forceComplete.isPending}>
                <Flag aria-hidden="true" /> Forcer Terminer Mission
              </Button>
            }
            title="Forcer la fin de la mission ?"
            description="Les défibrillateurs non traités passent dans « Défibrillateurs de missions annulées » et la facture est calculée au prorata."
            confirmLabel="Terminer la mission"
            destructive={false}
            onConfirm={onForceComplete}
          />
        </div>
      ) : null}
      <ul className="grid gap-3">
        {applications.data.map((application) => (
          <li key={application.id}>
            <ApplicationCard application={application} assigned={assigned} />
          </li>
        ))}
      </ul>
    </div>
  );
}

function ApplicationCard({ application, assigned }: { application: ApplicationWithTechnician; assigned: boolean }) {
  const setStatus = useSetApplicationStatus();
  const saveComment = useSaveAdminComment();
  const [comment, setComment] = useState(application.adminComment ?? '');
  const { technician } = application;
  const name = `${technician.firstName} ${technician.lastName}`;
  const pending = application.status === 'En attente' || application.status === 'pending';
  const isSelected = SELECTED.includes(application.status);
  const commentId = `ats-comment-${application.id}`;

  const decide = async (status: 'Recruté' | 'Refusé') => {
    try {
      await setStatus.mutateAsync({ id: application.id, status });
      toast({ title: status === 'Recruté' ? 'Technicien sélectionné avec succès' : 'Candidature refusée', variant: 'success' });
    } catch (error) {
      toastError(status === 'Recruté' ? 'Erreur lors de la sélection' : 'Erreur lors du refus', error);
    }
  };

  const onSaveComment = async () => {
    try {
      await saveComment.mutateAsync({ id: application.id, adminComment: comment });
      toast({ title: 'Commentaire sauvegardé', description: 'Le technicien le verra avec le lot.', variant: 'success' });
    } catch (error) {
      toastError('Impossible de sauvegarder le commentaire', error);
    }
  };

  return (
    <Card className="grid gap-3 p-4" role="article" aria-label={`Candidature de ${name}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="grid gap-0.5">
          <p className="font-semibold">{name}</p>
          {technician.companyName ? (
            <p className="flex items-center gap-1.5 text-sm text-muted-foreground">
              <Building2 className="size-3.5" aria-hidden="true" /> {technician.companyName}
            </p>
          ) : null}
        </div>
        <div className="flex items-center gap-2">
          <Badge variant={STATUS_VARIANT[application.status] ?? 'info'}>{application.status}</Badge>
          <span className="text-xs text-muted-foreground">Candidature du {formatDate(application.appliedAt)}</span>
        </div>
      </div>
      <dl className="grid gap-x-6 gap-y-1.5 text-sm sm:grid-cols-2">
        <div className="flex items-center gap-2">
          <Mail className="size-4 text-muted-foreground" aria-hidden="true" />
          <dt className="sr-only">Email</dt>
          <dd className="truncate">{technician.email}</dd>
        </div>
        <div className="flex items-center gap-2">
          <Phone className="size-4 text-muted-foreground" aria-hidden="true" />
          <dt className="sr-only">Téléphone</dt>
          <dd>{technician.phone ?? 'Non renseigné'}</dd>
        </div>
        <div className="flex items-center gap-2">
          <MapPin className="size-4 text-muted-foreground" aria-hidden="true" />
          <dt className="sr-only">Départements et code postal</dt>
          <dd>
            {technician.departments.map(formatDepartment).join(', ') || 'Aucun département'}
            {technician.postalCode ? ` · CP ${technician.postalCode}` : ''}
          </dd>
        </div>
        <div className="flex items-center gap-2">
          <Package className="size-4 text-muted-foreground" aria-hidden="true" />
          <dt className="sr-only">Point relais</dt>
          <dd>{technician.preferredRelayPoint ?? 'Aucun point relais configuré'}</dd>
        </div>
        <div>
          <dt className="inline text-muted-foreground">Revenus : </dt>
          <dd className="inline font-medium tabular-nums">{formatEuros(application.earnings)}</dd>
        </div>
        <div>
          <dt className="inline text-muted-foreground">Missions terminées : </dt>
          <dd className="inline font-medium tabular-nums">{application.missionCount}</dd>
        </div>
      </dl>
      {technician.remarks ? <p className="rounded-md bg-muted px-3 py-2 text-sm">{technician.remarks}</p> : null}

      <div className="grid gap-2">
        <Field id={commentId} label="Commentaire pour le technicien">
          <Textarea rows={2} value={comment} onChange={(event) => setComment(event.target.value)} maxLength={2000} />
        </Field>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <Button size="sm" variant="outline" disabled={comment.trim() === ''} loading={saveComment.isPending} onClick={onSaveComment}>
            Envoyer le commentaire
          </Button>
          <div className="flex gap-2">
            {isSelected ? null : (
              <Button size="sm" variant="outline" disabled={!pending || setStatus.isPending} onClick={() => decide('Refusé')}>
                <UserX aria-hidden="true" /> Refuser
              </Button>
            )}
            {isSelected ? (
              <Badge variant="success" className="h-9 px-3 text-sm">
                <Check className="size-4" aria-hidden="true" /> {application.status === 'Terminé' ? 'Terminé' : 'Sélectionné'}
              </Badge>
            ) : (
              <Button size="sm" disabled={assigned} loading={setStatus.isPending} onClick={() => decide('Recruté')}>
                {assigned ? 'Déjà assigné' : 'Sélectionner'}
              </Button>
            )}
          </div>
        </div>
      </div>
    </Card>
  );
}
