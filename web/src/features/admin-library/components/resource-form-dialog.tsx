import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { LEARNING_RESOURCE_TYPE_LABELS } from '@maillon/common/enums';
import type { LearningResource } from '@maillon/common/schemas/learning-resources';
import {
  LEARNING_RESOURCE_FORM_TYPES,
  learningResourceRequestSchema,
  type LearningResourceRequest,
} from '@maillon/common/schemas/library';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect, Textarea } from '@/components/ui/input';
import { toast, toastError } from '@/components/ui/use-toast';
import { useCreateLearningResource } from '../api/create-learning-resource';
import { useUpdateLearningResource } from '../api/update-learning-resource';

interface ResourceFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The resource to edit; null to add one. */
  resource: LearningResource | null;
}

/** "Nouvelle Ressource" add/edit modal: title, description, type and link required, duration at least 1 minute. */
export function ResourceFormDialog({ open, onOpenChange, resource }: ResourceFormDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>{resource ? 'Modifier la ressource' : 'Nouvelle Ressource'}</DialogTitle>
          <DialogDescription>
            {resource
              ? 'Les lectures déjà enregistrées sont conservées.'
              : 'Chaque technicien devra consulter cette ressource pour garder une formation complète.'}
          </DialogDescription>
        </DialogHeader>
        {open ? <ResourceForm resource={resource} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function ResourceForm({ resource, onDone }: { resource: LearningResource | null; onDone: () => void }) {
  const create = useCreateLearningResource();
  const update = useUpdateLearningResource();
  const form = useForm<LearningResourceRequest>({
    resolver: zodResolver(learningResourceRequestSchema),
    defaultValues: resource
      ? {
          title: resource.title,
          description: resource.description,
          type: resource.type,
          url: resource.url,
          duration: resource.duration,
        }
      : { title: '', description: '', type: 'document', url: '', duration: null },
  });
  const { errors, isSubmitting } = form.formState;
  // "pdf" is not offered for new resources but stays selectable on a resource that has it.
  const types = resource?.type === 'pdf' ? [...LEARNING_RESOURCE_FORM_TYPES, 'pdf' as const] : LEARNING_RESOURCE_FORM_TYPES;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      if (resource) {
        await update.mutateAsync({ id: resource.id, body: values });
        toast({ title: 'Ressource modifiée', description: values.title, variant: 'success' });
      } else {
        await create.mutateAsync(values);
        toast({ title: 'Ressource créée', description: values.title, variant: 'success' });
      }
      onDone();
    } catch (error) {
      toastError(resource ? 'Erreur lors de la modification' : 'Erreur lors de la création', error);
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <Field id="resource-title" label="Titre" required error={errors.title?.message}>
        <Input {...form.register('title')} maxLength={200} />
      </Field>
      <Field id="resource-description" label="Description" required error={errors.description?.message}>
        <Textarea rows={3} {...form.register('description')} maxLength={5000} />
      </Field>
      <div className="grid grid-cols-2 gap-4">
        <Field id="resource-type" label="Type" required error={errors.type?.message}>
          <NativeSelect {...form.register('type')}>
            {types.map((type) => (
              <option key={type} value={type}>
                {LEARNING_RESOURCE_TYPE_LABELS[type]}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id="resource-duration" label="Durée (minutes)" error={errors.duration?.message}>
          <Input
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            {...form.register('duration', {
              setValueAs: (v: unknown) => (v === '' || v === null || v === undefined ? null : Number(v)),
            })}
          />
        </Field>
      </div>
      <Field id="resource-url" label="Lien" required error={errors.url?.message}>
        <Input type="url" placeholder="https://" {...form.register('url')} maxLength={2000} />
      </Field>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          Annuler
        </Button>
        <Button type="submit" loading={isSubmitting}>
          {resource ? 'Enregistrer' : 'Créer la ressource'}
        </Button>
      </DialogFooter>
    </form>
  );
}
