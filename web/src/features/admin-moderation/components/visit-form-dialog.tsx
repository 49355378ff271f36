import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { DEPARTMENTS, formatDepartment } from '@maillon/common/departments';
import { DEFIBRILLATOR_MODELS, VISIT_TYPES_MODERATION } from '@maillon/common/reference-lists';
import {
  jobFieldsSchema,
  manualVisitRequestSchema,
  type Job,
  type JobFields,
  type JobFieldsInput,
} from '@maillon/common/schemas/moderation';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect, Textarea } from '@/components/ui/input';
import { toast, toastError } from '@/components/ui/use-toast';
import { useCreateManualJob } from '../api/create-manual-job';
import { useUpdateJob } from '../api/update-job';

interface VisitFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Editing this visit (Modifier); creating one (Ajout Manuel) when absent. */
  job?: Job | undefined;
}

function defaultsOf(job: Job | undefined): JobFieldsInput {
  return {
    serialNumber: job?.serialNumber ?? '',
    clientName: job?.clientName ?? '',
    defibrillatorModel: job?.defibrillatorModel ?? '',
    visitType: job?.visitType ?? '',
    department: job?.department ?? '',
    address: job?.address ?? '',
    completionLink: job?.completionLink ?? '',
    telSite: job?.telSite ?? '',
    emailSite: job?.emailSite ?? '',
    observations: job?.observations ?? '',
    postalCode: job?.postalCode ?? '',
    city: job?.city ?? '',
    latitude: job?.latitude ?? null,
    longitude: job?.longitude ?? null,
  };
}

/** "Ajout Manuel" and "Modifier": the visit fields with the spec 02 §5 messages inline. */
export function VisitFormDialog({ open, onOpenChange, job }: VisitFormDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>{job ? 'Modifier la visite' : 'Ajout Manuel'}</DialogTitle>
          <DialogDescription>
            {job ? 'Corrigez les informations de la visite avant de la valider.' : 'Ajoutez une visite de défibrillateur à modérer.'}
          </DialogDescription>
        </DialogHeader>
        {/* Mounted only while open, so each opening starts from the visit's current values. */}
        {open ? <VisitForm job={job} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function VisitForm({ job, onDone }: { job: Job | undefined; onDone: () => void }) {
  const create = useCreateManualJob();
  const update = useUpdateJob();
  // A visit from the suggestion tool may name a model outside our list: keep it selectable when editing.
  const schema = job ? jobFieldsSchema : manualVisitRequestSchema;
  const form = useForm<JobFieldsInput, unknown, JobFields>({ resolver: zodResolver(schema), defaultValues: defaultsOf(job) });
  const { errors, isSubmitting } = form.formState;
  const models = job && !DEFIBRILLATOR_MODELS.includes(job.defibrillatorModel) ? [job.defibrillatorModel, ...DEFIBRILLATOR_MODELS] : DEFIBRILLATOR_MODELS;
  const prefix = job ? `visit-${job.id}` : 'visit-new';

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      if (job) {
        await update.mutateAsync({ id: job.id, body: values });
        toast({ title: 'Mission modifiée avec succès', variant: 'success' });
      } else {
        await create.mutateAsync(values);
        toast({ title: 'Mission créée avec succès', description: 'La visite attend votre modération.', variant: 'success' });
      }
      onDone();
    } catch (error) {
      toastError(job ? 'Erreur lors de la modification' : 'Erreur lors de la création', error);
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={`${prefix}-serial`} label="Numéro de série ou minicode" required error={errors.serialNumber?.message}>
          <Input autoComplete="off" {...form.register('serialNumber')} />
        </Field>
        <Field id={`${prefix}-client`} label="Dénomination client" required error={errors.clientName?.message}>
          <Input autoComplete="organization" {...form.register('clientName')} />
        </Field>
        <Field id={`${prefix}-model`} label="Modèle défibrillateur" required error={errors.defibrillatorModel?.message}>
          <NativeSelect {...form.register('defibrillatorModel')}>
            <option value="">Choisir un modèle…</option>
            {models.map((model) => (
              <option key={model} value={model}>
                {model}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id={`${prefix}-type`} label="Type de visite" required error={errors.visitType?.message}>
          <NativeSelect {...form.register('visitType')}>
            <option value="">Choisir un type…</option>
            {VISIT_TYPES_MODERATION.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id={`${prefix}-department`} label="Département" required error={errors.department?.message}>
          <NativeSelect {...form.register('department')}>
            <option value="">Choisir un département…</option>
            {DEPARTMENTS.map((d) => (
              <option key={d.code} value={d.code}>
                {formatDepartment(d.code)}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id={`${prefix}-link`} label="Lien de complétion" required error={errors.completionLink?.message}>
          <Input type="url" inputMode="url" placeholder="https://" {...form.register('completionLink')} />
        </Field>
      </div>
      <Field id={`${prefix}-address`} label="Adresse postale" required error={errors.address?.message} hint="Numéro, rue, code postal et ville">
        <Input autoComplete="street-address" {...form.register('address')} />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={`${prefix}-tel`} label="Téléphone site" error={errors.telSite?.message}>
          <Input type="tel" autoComplete="tel" {...form.register('telSite')} />
        </Field>
        <Field id={`${prefix}-email`} label="Email site" error={errors.emailSite?.message}>
          <Input type="email" autoComplete="email" {...form.register('emailSite')} />
        </Field>
      </div>
      <Field id={`${prefix}-observations`} label="Observations" error={errors.observations?.message}>
        <Textarea rows={3} {...form.register('observations')} />
      </Field>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          Annuler
        </Button>
        <Button type="submit" loading={isSubmitting}>
          {job ? 'Enregistrer' : 'Ajouter la visite'}
        </Button>
      </DialogFooter>
    </form>
  );
}
