import { useState } from 'react';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { CONSUMABLE_KIND_LABELS, CONSUMABLE_KINDS, type ConsumableKind } from '@maillon/common/enums';
import { consumableRequestSchema, partsSettingsSchema, type Consumable } from '@maillon/common/schemas/parts';
import { SHIPMENT_ITEMS } from '@maillon/common/reference-lists';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect } from '@/components/ui/input';
import { toast, toastError } from '@/components/ui/use-toast';
import { useConsumables, useDeleteConsumable, usePartsSettings, useSaveConsumable, useSavePartsSettings } from '../api/parts-settings';

function fieldErrors(error: { issues: { path: PropertyKey[]; message: string }[] }): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) errors[String(issue.path[0])] ??= issue.message;
  return errors;
}

function PartsDelays() {
  const settings = usePartsSettings();
  const save = useSavePartsSettings();
  const [values, setValues] = useState<{ expiryMarginDays: string; shipDaysBeforeVisit: string } | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  if (settings.isPending) return <Skeleton className="h-24" />;
  if (settings.isError) return <ErrorState error={settings.error} />;
  const current = values ?? { expiryMarginDays: String(settings.data.expiryMarginDays), shipDaysBeforeVisit: String(settings.data.shipDaysBeforeVisit) };

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = partsSettingsSchema.safeParse(current);
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    save.mutate(parsed.data, {
      onSuccess: () => {
        setValues(null);
        toast({ title: 'Réglages des colis enregistrés', variant: 'success' });
      },
      onError: (error) => toastError("Erreur lors de l'enregistrement des réglages", error),
    });
  };

  return (
    <form className="grid items-end gap-4 sm:grid-cols-[1fr_1fr_auto]" onSubmit={onSubmit} noValidate>
      <Field id="parts-margin" label="Marge d'expiration (jours)" error={errors.expiryMarginDays} hint="Une pièce qui expire avant la visite + cette marge est envoyée.">
        <Input type="number" inputMode="numeric" min={0} max={730} value={current.expiryMarginDays} onChange={(e) => setValues({ ...current, expiryMarginDays: e.target.value })} />
      </Field>
      <Field id="parts-ship-days" label="Colis à expédier N jours avant la première visite" error={errors.shipDaysBeforeVisit} hint="Au-delà, le lot porte le badge « Colis en retard ».">
        <Input type="number" inputMode="numeric" min={0} max={90} value={current.shipDaysBeforeVisit} onChange={(e) => setValues({ ...current, shipDaysBeforeVisit: e.target.value })} />
      </Field>
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? 'Sauvegarde...' : 'Enregistrer'}
      </Button>
    </form>
  );
}

const EMPTY = { manufacturer: '', model: '', kind: 'battery' as ConsumableKind, itemLabel: '' };

function ConsumableForm({ editing, onDone }: { editing: Consumable | null; onDone: () => void }) {
  const save = useSaveConsumable();
  const [values, setValues] = useState(editing ? { manufacturer: editing.manufacturer, model: editing.model, kind: editing.kind, itemLabel: editing.itemLabel } : EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = consumableRequestSchema.safeParse(values);
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    save.mutate(
      { id: editing?.id ?? null, body: parsed.data },
      {
        onSuccess: () => {
          toast({ title: editing ? 'Pièce de référence modifiée' : 'Pièce de référence ajoutée', variant: 'success' });
          setValues(EMPTY);
          onDone();
        },
        onError: (error) => toastError("Erreur lors de l'enregistrement de la pièce", error),
      },
    );
  };
  return (
    <form className="grid items-end gap-3 rounded-md border p-3 lg:grid-cols-[1fr_1fr_12rem_2fr_auto]" onSubmit={onSubmit} noValidate aria-label={editing ? 'Modifier la pièce' : 'Ajouter une pièce'}>
      <Field id="consumable-manufacturer" label="Fabricant" error={errors.manufacturer}>
        <Input value={values.manufacturer} maxLength={100} onChange={(e) => setValues({ ...values, manufacturer: e.target.value })} />
      </Field>
      <Field id="consumable-model" label="Modèle" error={errors.model}>
        <Input value={values.model} maxLength={100} onChange={(e) => setValues({ ...values, model: e.target.value })} />
      </Field>
      <Field id="consumable-kind" label="Consommable" error={errors.kind}>
        <NativeSelect value={values.kind} onChange={(e) => setValues({ ...values, kind: e.target.value as ConsumableKind })}>
          {CONSUMABLE_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {CONSUMABLE_KIND_LABELS[kind]}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field id="consumable-item" label="Pièce envoyée" error={errors.itemLabel}>
        <NativeSelect value={values.itemLabel} onChange={(e) => setValues({ ...values, itemLabel: e.target.value })}>
          <option value="">Choisir une pièce...</option>
          {SHIPMENT_ITEMS.map((item) => (
            <option key={item} value={item}>
              {item}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <div className="flex gap-2">
        <Button type="submit" disabled={save.isPending}>
          {editing ? 'Enregistrer' : <><Plus aria-hidden="true" /> Ajouter</>}
        </Button>
        {editing ? (
          <Button type="button" variant="ghost" onClick={onDone}>
            Annuler
          </Button>
        ) : null}
      </div>
    </form>
  );
}

function ConsumablesEditor() {
  const consumables = useConsumables();
  const remove = useDeleteConsumable();
  const [editing, setEditing] = useState<Consumable | null>(null);
  if (consumables.isPending) return <Skeleton className="h-40" />;
  if (consumables.isError) return <ErrorState error={consumables.error} />;
  return (
    <div className="grid gap-3">
      <ConsumableForm key={editing?.id ?? 'new'} editing={editing} onDone={() => setEditing(null)} />
      <div className="max-h-96 overflow-y-auto rounded-md border">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Pièces de référence par modèle</caption>
          <thead className="sticky top-0 bg-muted text-xs text-muted-foreground">
            <tr>
              <th scope="col" className="px-3 py-2">Modèle</th>
              <th scope="col" className="px-3 py-2">Consommable</th>
              <th scope="col" className="px-3 py-2">Pièce envoyée</th>
              <th scope="col" className="px-3 py-2"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody className="divide-y">
            {consumables.data.map((c) => (
              <tr key={c.id}>
                <td className="px-3 py-1.5">{c.manufacturer} - {c.model}</td>
                <td className="px-3 py-1.5">{CONSUMABLE_KIND_LABELS[c.kind]}</td>
                <td className="px-3 py-1.5">{c.itemLabel}</td>
                <td className="whitespace-nowrap px-3 py-1.5 text-right">
                  <Button size="sm" variant="ghost" aria-label={`Modifier ${c.manufacturer} ${c.model} — ${CONSUMABLE_KIND_LABELS[c.kind]}`} onClick={() => setEditing(c)}>
                    <Pencil aria-hidden="true" />
                  </Button>
                  <ConfirmDialog
                    trigger={
                      <Button size="sm" variant="ghost" aria-label={`Supprimer ${c.manufacturer} ${c.model} — ${CONSUMABLE_KIND_LABELS[c.kind]}`}>
                        <Trash2 aria-hidden="true" />
                      </Button>
                    }
                    title="Supprimer cette pièce de référence ?"
                    description={`${c.manufacturer} - ${c.model} : ${CONSUMABLE_KIND_LABELS[c.kind].toLowerCase()}. Les appareils de ce modèle passeront « à vérifier » pour ce consommable.`}
                    confirmLabel="Supprimer"
                    onConfirm={() =>
                      remove
                        .mutateAsync(c.id)
                        .then(() => toast({ title: 'Pièce de référence supprimée', variant: 'success' }))
                        .catch((error: unknown) => toastError('Erreur lors de la suppression', error))
                    }
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** Réglages « Colis et consommables » (issue 20). */
export function PartsSettingsSection() {
  return (
    <section aria-labelledby="settings-parts" className="grid gap-4">
      <h2 id="settings-parts" className="text-lg font-semibold">
        Colis et consommables
      </h2>
      <Card>
        <CardHeader>
          <CardDescription>Les colis proposés pour chaque lot suivent les dates de péremption du parc DAE.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6">
          <PartsDelays />
          <div className="grid gap-2">
            <h3 className="font-medium">Pièces de référence par modèle</h3>
            <ConsumablesEditor />
          </div>
        </CardContent>
      </Card>
    </section>
  );
}
