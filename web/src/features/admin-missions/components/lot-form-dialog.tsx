import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { X } from 'lucide-react';
import { LOT_TAGS_MAX } from '@maillon/common/constants';
import { DEPARTMENTS, formatDepartment } from '@maillon/common/departments';
import { formatEurosShort } from '@maillon/common/format';
import { MISSION_TAGS } from '@maillon/common/reference-lists';
import {
  LOT_MESSAGES,
  lotDeadlineBounds,
  parseDecimal,
  updateBatchRequestSchema,
  type AdminBatch,
  type UpdateBatchInput,
  type UpdateBatchRequest,
} from '@maillon/common/schemas/admin-lots';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect, Textarea } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { toast, toastError } from '@/components/ui/use-toast';
import { cn } from '@/lib/cn';
import { useSaveBatch } from '../api/save-batch';

interface LotFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Editing this lot; creating one when absent. */
  lot?: AdminBatch | undefined;
}

/** "Créer un lot" and the edit-lot modal (02 §5 rules: title, decimal price, max 2 tags, deadline range, visibility). */
export function LotFormDialog({ open, onOpenChange, lot }: LotFormDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>{lot ? 'Modifier le lot' : 'Créer un lot'}</DialogTitle>
          <DialogDescription>
            {lot ? 'Les chiffres du lot sont recalculés par le serveur.' : 'Le lot est créé invisible : rendez-le visible quand il est prêt.'}
          </DialogDescription>
        </DialogHeader>
        {open ? <LotForm lot={lot} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function LotForm({ lot, onDone }: { lot: AdminBatch | undefined; onDone: () => void }) {
  const save = useSaveBatch();
  const bounds = lotDeadlineBounds();
  const form = useForm<UpdateBatchInput, unknown, UpdateBatchRequest>({
    resolver: zodResolver(updateBatchRequestSchema),
    defaultValues: {
      title: lot?.title ?? '',
      description: lot?.description ?? '',
      price: lot ? String(lot.price).replace('.', ',') : '',
      departments: lot?.departments ?? [],
      tags: lot?.tags ?? [],
      deadline: lot?.deadline ? lot.deadline.slice(0, 10) : '',
      visibility: lot?.visibility ?? 'invisible',
    },
  });
  const { errors, isSubmitting } = form.formState;
  const departments = form.watch('departments') ?? [];
  const tags = form.watch('tags') ?? [];
  const price = parseDecimal(form.watch('price'));
  const perDefib = lot && lot.defibrillatorsSum > 0 && Number.isFinite(price) ? Math.round(price / lot.defibrillatorsSum) : null;
  const tagChoices = [...new Set([...tags, ...MISSION_TAGS])];
  const tagsFull = tags.length >= LOT_TAGS_MAX;
  const prefix = lot ? `lot-${lot.id}` : 'lot-new';

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync({ id: lot?.id, body: lot ? values : { ...values, visibility: undefined } });
      toast({ title: lot ? 'Lot modifié avec succès' : 'Lot créé avec succès', variant: 'success' });
      onDone();
    } catch (error) {
      toastError(lot ? 'Erreur lors de la modification' : 'Erreur lors de la création', error);
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <Field id={`${prefix}-title`} label="Titre du lot" required error={errors.title?.message}>
        <Input {...form.register('title')} />
      </Field>
      <Field id={`${prefix}-description`} label="Description" error={errors.description?.message}>
        <Textarea rows={2} {...form.register('description')} />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id={`${prefix}-price`}
          label="Offre HT pour 100%"
          error={errors.price?.message}
          hint={perDefib !== null ? `Prix par défibrillateur : ${formatEurosShort(perDefib)}` : 'En euros, ex. 960 ou 960,50'}
        >
          <Input inputMode="decimal" autoComplete="off" {...form.register('price')} />
        </Field>
        <Field id={`${prefix}-deadline`} label="Date limite" error={errors.deadline?.message} hint={`Jusqu’au 31/12/${bounds.max.slice(0, 4)}`}>
          <Input type="date" min={bounds.min} max={bounds.max} {...form.register('deadline')} />
        </Field>
      </div>

      <div className="grid gap-2">
        <Field id={`${prefix}-departments`} label="Départements" error={errors.departments?.message}>
          <NativeSelect
            value=""
            onChange={(event) => {
              const code = event.target.value;
              if (code && !departments.includes(code)) form.setValue('departments', [...departments, code], { shouldDirty: true });
            }}
          >
            <option value="">Ajouter un département…</option>
            {DEPARTMENTS.filter((d) => !departments.includes(d.code)).map((d) => (
              <option key={d.code} value={d.code}>
                {formatDepartment(d.code)}
              </option>
            ))}
          </NativeSelect>
        </Field>
        {departments.length ? (
          <ul className="flex flex-wrap gap-2" aria-label="Départements du lot">
            {departments.map((code) => (
              <li key={code}>
                <button
                  type="button"
                  onClick={() => form.setValue('departments', departments.filter((c) => c !== code), { shouldDirty: true })}
                  className="inline-flex h-8 items-center gap-1 rounded-full border bg-muted px-3 text-sm hover:bg-secondary"
                  aria-label={`Retirer ${formatDepartment(code)}`}
                >
                  {formatDepartment(code)} <X className="size-3.5" aria-hidden="true" />
                </button>
              </li>
            ))}
          </ul>
        ) : null}
      </div>

      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">
          Tags <span className="font-normal text-muted-foreground">({tags.length} / {LOT_TAGS_MAX})</span>
        </legend>
        <div className="flex max-h-40 flex-wrap gap-2 overflow-y-auto rounded-md border p-2">
          {tagChoices.map((tag) => {
            const selected = tags.includes(tag);
            return (
              <button
                key={tag}
                type="button"
                aria-pressed={selected}
                disabled={!selected && tagsFull}
                onClick={() =>
                  form.setValue('tags', selected ? tags.filter((t) => t !== tag) : [...tags, tag], { shouldDirty: true, shouldValidate: true })
                }
                className={cn(
                  'h-8 rounded-full border px-3 text-sm transition-colors disabled:cursor-not-allowed disabled:opacity-40',
                  selected ? 'border-primary bg-primary text-primary-foreground' : 'bg-card hover:bg-muted',
                )}
              >
                {tag}
              </button>
            );
          })}
        </div>
        {tagsFull ? <p className="text-sm text-muted-foreground">{LOT_MESSAGES.tags}</p> : null}
        {errors.tags?.message ? (
          <p role="alert" className="text-sm text-destructive">
            {errors.tags.message}
          </p>
        ) : null}
      </fieldset>

      {lot ? (
        <Controller
          control={form.control}
          name="visibility"
          render={({ field }) => (
            <div className="flex items-center justify-between gap-3 rounded-md border p-3">
              <div className="grid gap-1">
                <Label htmlFor={`${prefix}-visibility`}>Visible par les techniciens</Label>
                <p className="text-xs text-muted-foreground">Seuls les lots visibles apparaissent dans « Trouver des missions ».</p>
              </div>
              <Switch
                id={`${prefix}-visibility`}
                checked={field.value === 'visible'}
                onCheckedChange={(checked) => field.onChange(checked ? 'visible' : 'invisible')}
              />
            </div>
          )}
        />
      ) : null}

      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          Annuler
        </Button>
        <Button type="submit" loading={isSubmitting}>
          {lot ? 'Enregistrer' : 'Créer le lot'}
        </Button>
      </DialogFooter>
    </form>
  );
}
