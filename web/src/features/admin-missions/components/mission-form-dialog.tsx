import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { DEPARTMENTS, formatDepartment } from '@maillon/common/departments';
import { DEFIBRILLATOR_MODELS, VISIT_TYPES_MISSION_EDIT } from '@maillon/common/reference-lists';
import {
  createMissionRequestSchema,
  updateMissionRequestSchema,
  type CreateMissionInput,
  type CreateMissionRequest,
  type Mission,
  type UpdateMissionInput,
  type UpdateMissionRequest,
} from '@maillon/common/schemas/admin-missions';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect, Textarea } from '@/components/ui/input';
import { toast, toastError } from '@/components/ui/use-toast';
import { useCreateMission } from '../api/create-mission';
import { useUpdateMission } from '../api/update-mission';

function withCurrent(list: readonly string[], current: string | null | undefined): readonly string[] {
  return current && !list.includes(current) ? [current, ...list] : list;
}

function DepartmentOptions() {
  return (
    <>
      <option value="">Choisir un département…</option>
      {DEPARTMENTS.map((d) => (
        <option key={d.code} value={d.code}>
          {formatDepartment(d.code)}
        </option>
      ))}
    </>
  );
}

/** Edit mission (02 §5): serial number or minicode, client, model, visit type, department, completion link, address. */
export function EditMissionDialog({ mission, onOpenChange }: { mission: Mission | null; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={mission !== null} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Modifier la mission</DialogTitle>
          <DialogDescription>{mission?.title}</DialogDescription>
        </DialogHeader>
        {mission ? <EditMissionForm mission={mission} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function EditMissionForm({ mission, onDone }: { mission: Mission; onDone: () => void }) {
  const update = useUpdateMission();
  const form = useForm<UpdateMissionInput, unknown, UpdateMissionRequest>({
    resolver: zodResolver(updateMissionRequestSchema),
    defaultValues: {
      serialNumber: mission.serialNumber ?? '',
      clientName: mission.clientName ?? '',
      defibrillatorModel: mission.defibrillatorModel ?? '',
      visitType: mission.visitType ?? '',
      department: mission.department ?? '',
      completionLink: mission.completionLink ?? '',
      address: mission.location ?? '',
      title: mission.title,
      description: mission.description ?? '',
      telSite: mission.telSite ?? '',
      emailSite: mission.emailSite ?? '',
      observations: mission.observations ?? '',
      postalCode: mission.postalCode ?? '',
      city: mission.city ?? '',
    },
  });
  const { errors, isSubmitting } = form.formState;
  const prefix = `mission-${mission.id}`;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await update.mutateAsync({ id: mission.id, body: values });
      toast({ title: 'Mission modifiée avec succès', variant: 'success' });
      onDone();
    } catch (error) {
      toastError('Erreur lors de la modification', error);
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={`${prefix}-title`} label="Titre" error={errors.title?.message}>
          <Input {...form.register('title')} />
        </Field>
        <Field id={`${prefix}-serial`} label="Numéro de série ou minicode" required error={errors.serialNumber?.message}>
          <Input autoComplete="off" {...form.register('serialNumber')} />
        </Field>
        <Field id={`${prefix}-client`} label="Dénomination client" required error={errors.clientName?.message}>
          <Input {...form.register('clientName')} />
        </Field>
        <Field id={`${prefix}-model`} label="Modèle défibrillateur" required error={errors.defibrillatorModel?.message}>
          <NativeSelect {...form.register('defibrillatorModel')}>
            <option value="">Choisir un modèle…</option>
            {withCurrent(DEFIBRILLATOR_MODELS, mission.defibrillatorModel).map((model) => (
              <option key={model} value={model}>
                {model}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id={`${prefix}-type`} label="Type de visite" required error={errors.visitType?.message}>
          <NativeSelect {...form.register('visitType')}>
            <option value="">Choisir un type…</option>
            {withCurrent(VISIT_TYPES_MISSION_EDIT, mission.visitType).map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id={`${prefix}-department`} label="Département" required error={errors.department?.message}>
          <NativeSelect {...form.register('department')}>
            <DepartmentOptions />
          </NativeSelect>
        </Field>
      </div>
      <Field id={`${prefix}-link`} label="Lien de complétion" required error={errors.completionLink?.message}>
        <Input type="url" inputMode="url" {...form.register('completionLink')} />
      </Field>
      <Field id={`${prefix}-address`} label="Adresse postale" required error={errors.address?.message}>
        <Input autoComplete="street-address" {...form.register('address')} />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={`${prefix}-tel`} label="Téléphone site" error={errors.telSite?.message}>
          <Input type="tel" {...form.register('telSite')} />
        </Field>
        <Field id={`${prefix}-email`} label="Email site" error={errors.emailSite?.message}>
          <Input type="email" {...form.register('emailSite')} />
        </Field>
      </div>
      <Field id={`${prefix}-observations`} label="Observations" error={errors.observations?.message}>
        <Textarea rows={2} {...form.register('observations')} />
      </Field>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          Annuler
        </Button>
        <Button type="submit" loading={isSubmitting}>
          Enregistrer
        </Button>
      </DialogFooter>
    </form>
  );
}

/** Create mission (02 §5): title, description, location, department, budget and deadline required; created as a draft. */
export function CreateMissionDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Nouvelle mission</DialogTitle>
          <DialogDescription>La mission est créée en brouillon, dans « À trier ».</DialogDescription>
        </DialogHeader>
        {open ? <CreateMissionForm onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function CreateMissionForm({ onDone }: { onDone: () => void }) {
  const create = useCreateMission();
  const form = useForm<CreateMissionInput, unknown, CreateMissionRequest>({
    resolver: zodResolver(createMissionRequestSchema),
    defaultValues: { title: '', description: '', location: '', department: '', budget: '150', deadline: '', serialNumber: '', clientName: '', defibrillatorModel: '', visitType: '', completionLink: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await create.mutateAsync(values);
      toast({ title: 'Mission créée avec succès', variant: 'success' });
      onDone();
    } catch (error) {
      toastError('Erreur', error, 'Erreur lors de la création de la mission');
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <Field id="new-mission-title" label="Titre" required error={errors.title?.message}>
        <Input {...form.register('title')} />
      </Field>
      <Field id="new-mission-description" label="Description" required error={errors.description?.message}>
        <Textarea rows={2} {...form.register('description')} />
      </Field>
      <Field id="new-mission-location" label="Localisation" required error={errors.location?.message} hint="Adresse, code postal et ville">
        <Input {...form.register('location')} />
      </Field>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field id="new-mission-department" label="Département" required error={errors.department?.message}>
          <NativeSelect {...form.register('department')}>
            <DepartmentOptions />
          </NativeSelect>
        </Field>
        <Field id="new-mission-budget" label="Budget (€)" required error={errors.budget?.message}>
          <Input inputMode="decimal" {...form.register('budget')} />
        </Field>
        <Field id="new-mission-deadline" label="Date limite" required error={errors.deadline?.message}>
          <Input type="date" {...form.register('deadline')} />
        </Field>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="new-mission-serial" label="Numéro de série" error={errors.serialNumber?.message}>
          <Input {...form.register('serialNumber')} />
        </Field>
        <Field id="new-mission-client" label="Dénomination client" error={errors.clientName?.message}>
          <Input {...form.register('clientName')} />
        </Field>
        <Field id="new-mission-model" label="Modèle défibrillateur" error={errors.defibrillatorModel?.message}>
          <NativeSelect {...form.register('defibrillatorModel')}>
            <option value="">—</option>
            {DEFIBRILLATOR_MODELS.map((model) => (
              <option key={model} value={model}>
                {model}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id="new-mission-type" label="Type de visite" error={errors.visitType?.message}>
          <NativeSelect {...form.register('visitType')}>
            <option value="">—</option>
            {VISIT_TYPES_MISSION_EDIT.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </NativeSelect>
        </Field>
      </div>
      <Field id="new-mission-link" label="Lien de complétion" error={errors.completionLink?.message}>
        <Input type="url" inputMode="url" {...form.register('completionLink')} />
      </Field>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          Annuler
        </Button>
        <Button type="submit" loading={isSubmitting}>
          Créer la mission
        </Button>
      </DialogFooter>
    </form>
  );
}
