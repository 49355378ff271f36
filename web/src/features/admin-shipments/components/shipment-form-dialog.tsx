import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Plus } from 'lucide-react';
import { SHIPMENT_STATUS_LABELS, SHIPMENT_STATUSES } from '@maillon/common/enums';
import { SHIPMENT_ITEMS } from '@maillon/common/reference-lists';
import {
  createShipmentRequestSchema,
  NO_POSTAL_CODE,
  NO_RELAY_POINT,
  SHIPMENT_CREATE_STATUSES,
  updateShipmentRequestSchema,
  type Shipment,
  type ShipmentLotOption,
} from '@maillon/common/schemas/shipments';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/feedback';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect, Textarea } from '@/components/ui/input';
import { toast, toastError } from '@/components/ui/use-toast';
import { useCreateShipment } from '../api/create-shipment';
import { useShipmentLotOption } from '../api/get-shipment-lot-options';
import { useUpdateShipment } from '../api/update-shipment';
import { LotPicker } from './lot-picker';

interface FormValues {
  batchId: string;
  status: string;
  destinationPostalCode: string;
  shippedDate: string;
  content: string;
  trackingNumber: string;
}

const dayFormatter = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Paris',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** A date as the YYYY-MM-DD a date input shows, in French time. */
function toDateInput(value: Date | string | null): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : dayFormatter.format(date);
}

function initialValues(shipment: Shipment | null, lot: ShipmentLotOption | null): FormValues {
  if (!shipment) {
    return {
      batchId: lot?.batchId ?? '',
      status: 'draft',
      destinationPostalCode: NO_POSTAL_CODE,
      shippedDate: toDateInput(new Date()),
      content: '',
      trackingNumber: '',
    };
  }
  return {
    batchId: lot?.batchId ?? '',
    status: shipment.status,
    destinationPostalCode: shipment.destinationPostalCode ?? NO_POSTAL_CODE,
    shippedDate: toDateInput(shipment.shippedDate),
    content: shipment.content ?? '',
    trackingNumber: shipment.trackingNumber ?? '',
  };
}

interface ShipmentFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The parcel to edit; null to create one. */
  shipment: Shipment | null;
  /** Preselected lot when creating from a filtered list. */
  defaultBatchId?: string | undefined;
}

/** Create-shipment and edit-shipment modals (spec §2, §5). */
export function ShipmentFormDialog({ open, onOpenChange, shipment, defaultBatchId }: ShipmentFormDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>{shipment ? 'Modifier l’expédition' : 'Nouvelle expédition'}</DialogTitle>
          <DialogDescription>
            Le colis est envoyé par Mondial Relay au point relais préféré du technicien recruté sur le lot.
          </DialogDescription>
        </DialogHeader>
        {open ? <ShipmentForm shipment={shipment} defaultBatchId={defaultBatchId} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

/**
 * The edited parcel's lot as the parcel itself tells it (its lot title, recipient and destination), even when the lot
 * no longer takes parcels (finished, recruit gone): nothing to ask the server.
 */
function lotOfShipment(shipment: Shipment): ShipmentLotOption | null {
  if (!shipment.batchId) return null;
  return {
    batchId: shipment.batchId,
    title: shipment.missionTitle ?? 'Lot',
    technicianId: shipment.technicianId ?? '',
    technicianName: shipment.technicianName ?? '',
    destination: shipment.destination ?? NO_RELAY_POINT,
  };
}

function ShipmentForm({
  shipment,
  defaultBatchId,
  onDone,
}: {
  shipment: Shipment | null;
  defaultBatchId?: string | undefined;
  onDone: () => void;
}) {
  // Created from a lot's parcels (?batchId=): the modal starts on that lot, if a parcel can still be made for it.
  const defaultLotId = shipment === null && defaultBatchId ? defaultBatchId : '';
  const defaultLot = useShipmentLotOption(defaultLotId, { enabled: defaultLotId !== '' });
  if (defaultLotId !== '' && defaultLot.isPending) return <Spinner label="Chargement du lot..." />;
  const initialLot = shipment ? lotOfShipment(shipment) : (defaultLot.data ?? null);
  return <ShipmentFields shipment={shipment} initialLot={initialLot} onDone={onDone} />;
}

function ShipmentFields({
  shipment,
  initialLot,
  onDone,
}: {
  shipment: Shipment | null;
  initialLot: ShipmentLotOption | null;
  onDone: () => void;
}) {
  const editing = shipment !== null;
  const create = useCreateShipment();
  const update = useUpdateShipment();
  // The chosen lot's option: its title for the picker, its recipient for the read-only fields below.
  const [lot, setLot] = useState<ShipmentLotOption | null>(initialLot);
  const form = useForm<FormValues>({ defaultValues: initialValues(shipment, initialLot) });
  const { errors, isSubmitting } = form.formState;

  const batchId = form.watch('batchId');
  const selected = lot && lot.batchId === batchId ? lot : null;
  const destination = selected
    ? editing && selected.batchId === shipment.batchId
      ? (shipment.destination ?? NO_RELAY_POINT)
      : selected.destination
    : '';

  const addItem = (item: string) => {
    const current = form.getValues('content').trim();
    form.setValue('content', current ? `${current}, ${item}` : item, { shouldDirty: true });
  };

  const showIssues = (issues: { path: PropertyKey[]; message: string }[]) => {
    for (const issue of issues) {
      const key = issue.path[0];
      if (typeof key === 'string' && key in form.getValues()) form.setError(key as keyof FormValues, { message: issue.message });
    }
  };

  // The shared schemas check the form before sending (same French messages as the server).
  const onSubmit = form.handleSubmit(async (values) => {
    const body = { ...values, trackingNumber: values.trackingNumber.trim() || null, content: values.content.trim() || null };
    try {
      if (editing) {
        const parsed = updateShipmentRequestSchema.safeParse(body);
        if (!parsed.success) return showIssues(parsed.error.issues);
        await update.mutateAsync({ id: shipment.id, body: parsed.data });
        toast({ title: 'Expédition modifiée', description: selected?.title, variant: 'success' });
      } else {
        const parsed = createShipmentRequestSchema.safeParse(body);
        if (!parsed.success) return showIssues(parsed.error.issues);
        await create.mutateAsync(parsed.data);
        toast({ title: 'Expédition créée', description: selected?.title, variant: 'success' });
      }
      onDone();
    } catch (error) {
      toastError(editing ? 'Erreur lors de la modification' : "Erreur lors de la création de l'expédition", error);
    }
  });

  const statuses = editing ? SHIPMENT_STATUSES : SHIPMENT_CREATE_STATUSES;
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <Controller
        control={form.control}
        name="batchId"
        render={({ field }) => (
          <Field id="shipment-batch" label="Lot de mission" required error={errors.batchId?.message}>
            <LotPicker
              value={selected}
              onChange={(next) => {
                setLot(next);
                field.onChange(next?.batchId ?? '');
              }}
            />
          </Field>
        )}
      />
      <div className="grid grid-cols-2 gap-4">
        <Field id="shipment-technician" label="Technicien">
          <Input
            readOnly
            value={selected?.technicianName ?? ''}
            placeholder="Technicien recruté sur le lot"
            className="bg-muted"
          />
        </Field>
        <Field id="shipment-destination" label="Destination (point relais)">
          <Input readOnly value={destination} placeholder="Point relais du technicien" className="bg-muted" />
        </Field>
        <Field id="shipment-postal-code" label="Code postal de destination" error={errors.destinationPostalCode?.message}>
          <Input {...form.register('destinationPostalCode')} maxLength={100} />
        </Field>
        <Field id="shipment-date" label="Date d’expédition" error={errors.shippedDate?.message}>
          <Input type="date" {...form.register('shippedDate')} />
        </Field>
        <Field id="shipment-status" label="Statut" error={errors.status?.message}>
          <NativeSelect {...form.register('status')}>
            {statuses.map((status) => (
              <option key={status} value={status}>
                {SHIPMENT_STATUS_LABELS[status]}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id="shipment-tracking" label="Numéro de suivi" error={errors.trackingNumber?.message}>
          <Input {...form.register('trackingNumber')} placeholder="MR12345678" maxLength={100} />
        </Field>
      </div>
      <Field id="shipment-content" label="Contenu du colis" error={errors.content?.message}>
        <Textarea rows={3} {...form.register('content')} maxLength={2000} placeholder="Batteries, électrodes, signalétique..." />
      </Field>
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">Ajout rapide</legend>
        <div className="flex max-h-32 flex-wrap gap-1.5 overflow-y-auto rounded-md border p-2">
          {SHIPMENT_ITEMS.map((item) => (
            <button
              key={item}
              type="button"
              onClick={() => addItem(item)}
              className="inline-flex items-center gap-1 rounded-full border bg-card px-2.5 py-1 text-xs hover:bg-muted [&_svg]:size-3"
            >
              <Plus aria-hidden="true" />
              {item}
            </button>
          ))}
        </div>
      </fieldset>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          Annuler
        </Button>
        <Button type="submit" loading={isSubmitting}>
          {editing ? 'Enregistrer' : 'Créer l’expédition'}
        </Button>
      </DialogFooter>
    </form>
  );
}
