import { useState } from 'react';
import { FileDown, Save, Tag } from 'lucide-react';
import { DEVICE_ACCESS, DEVICE_STATES } from '@maillon/common/enums';
import { checkOpeningHours, describeOpeningHours, isValidSiren, OPENING_HOURS_EXAMPLE, PHONE_INVALID, SIREN_INVALID, toInternationalPhone } from '@maillon/common/device-rules';
import { formatDate, formatDateTime } from '@maillon/common/format';
import type { DeviceDetail, UpdateDeviceInput } from '@maillon/common/schemas/devices';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect, Textarea } from '@/components/ui/input';
import { toast, toastError } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';
import { useDevice } from '../api/get-device';
import { useUpdateDevice } from '../api/update-device';
import { DueDate, StateBadge } from './device-values';

/** The registry's editable fields, as the form holds them (text for every input). */
const TEXT_FIELDS = [
  'manufacturer', 'model', 'siteName', 'address', 'postalCode', 'city', 'accessFloor', 'accessDetails', 'openingHours', 'availabilityDetails',
  'sitePhone', 'siteEmail', 'operatorName', 'operatorSiren', 'operatorPhone', 'operatorEmail',
  'batteryExpiry', 'adultPadsExpiry', 'pediatricPadsExpiry', 'installedOn', 'lastMaintenanceOn', 'nextMaintenanceDue',
] as const;
type TextField = (typeof TEXT_FIELDS)[number];
type FormValues = Record<TextField, string> & {
  functionalState: string;
  access: string;
  freeAccess: string;
  pediatricPadsPresent: string;
  latitude: string;
  longitude: string;
  maintenanceIntervalMonths: string;
};

const yesNo = (value: boolean | null) => (value === null ? '' : value ? 'oui' : 'non');
const fromYesNo = (value: string) => (value === '' ? null : value === 'oui');

function toForm(device: DeviceDetail): FormValues {
  const values = Object.fromEntries(TEXT_FIELDS.map((field) => [field, device[field] ?? ''])) as Record<TextField, string>;
  return {
    ...values,
    functionalState: device.functionalState,
    access: device.access ?? '',
    freeAccess: yesNo(device.freeAccess),
    pediatricPadsPresent: yesNo(device.pediatricPadsPresent),
    latitude: device.latitude === null ? '' : String(device.latitude),
    longitude: device.longitude === null ? '' : String(device.longitude),
    maintenanceIntervalMonths: String(device.maintenanceIntervalMonths),
  };
}

/** The PATCH body: only what changed (the last maintenance without an explicit next one lets the server compute it). */
function changes(device: DeviceDetail, form: FormValues): UpdateDeviceInput {
  const before = toForm(device);
  const body: Record<string, unknown> = {};
  for (const field of TEXT_FIELDS) if (form[field] !== before[field]) body[field] = form[field].trim() === '' ? null : form[field].trim();
  if (form.functionalState !== before.functionalState) body.functionalState = form.functionalState;
  if (form.access !== before.access) body.access = form.access || null;
  if (form.freeAccess !== before.freeAccess) body.freeAccess = fromYesNo(form.freeAccess);
  if (form.pediatricPadsPresent !== before.pediatricPadsPresent) body.pediatricPadsPresent = fromYesNo(form.pediatricPadsPresent);
  if (form.latitude !== before.latitude || form.longitude !== before.longitude) {
    body.latitude = form.latitude.trim() === '' ? null : Number(form.latitude.replace(',', '.'));
    body.longitude = form.longitude.trim() === '' ? null : Number(form.longitude.replace(',', '.'));
  }
  if (form.maintenanceIntervalMonths !== before.maintenanceIntervalMonths) body.maintenanceIntervalMonths = Number(form.maintenanceIntervalMonths);
  return body as UpdateDeviceInput;
}

/** Checks the phone can make before asking the server (which checks them all again). */
function localErrors(form: FormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  if (form.operatorSiren.trim() && !isValidSiren(form.operatorSiren)) errors.operatorSiren = SIREN_INVALID;
  if (form.openingHours.trim()) {
    const error = checkOpeningHours(form.openingHours);
    if (error) errors.openingHours = error;
  }
  for (const field of ['sitePhone', 'operatorPhone'] as const) if (form[field].trim() && !toInternationalPhone(form[field])) errors[field] = PHONE_INVALID;
  return errors;
}

export function DeviceDialog({ deviceId, onClose }: { deviceId: string | null; onClose: () => void }) {
  const device = useDevice(deviceId);
  return (
    <Dialog open={Boolean(deviceId)} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="max-w-5xl">
        {device.isPending ? (
          <div className="grid gap-3" aria-busy="true">
            <DialogTitle>Défibrillateur</DialogTitle>
            <Skeleton className="h-24" />
            <Skeleton className="h-64" />
          </div>
        ) : device.isError ? (
          <>
            <DialogTitle>Défibrillateur</DialogTitle>
            <ErrorState error={device.error} />
          </>
        ) : (
          <DevicePage key={device.data.updatedAt} device={device.data} />
        )}
      </DialogContent>
    </Dialog>
  );
}

function DevicePage({ device }: { device: DeviceDetail }) {
  const [form, setForm] = useState<FormValues>(() => toForm(device));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const update = useUpdateDevice();
  const body = changes(device, form);
  const changed = Object.keys(body).length;
  const set = (field: keyof FormValues) => (event: { target: { value: string } }) => setForm((current) => ({ ...current, [field]: event.target.value }));
  const text = (field: TextField, label: string, options: { type?: string; hint?: string; multiline?: boolean; maxLength?: number } = {}) => (
    <Field id={`device-${field}`} label={label} error={errors[field]} hint={options.hint}>
      {options.multiline ? (
        <Textarea rows={2} value={form[field]} onChange={set(field)} maxLength={options.maxLength ?? 500} />
      ) : (
        <Input type={options.type ?? 'text'} value={form[field]} onChange={set(field)} maxLength={options.maxLength ?? 300} />
      )}
    </Field>
  );

  const save = async () => {
    const found = localErrors(form);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      toast({ title: 'Registre non enregistré', description: Object.values(found)[0], variant: 'destructive' });
      return;
    }
    try {
      await update.mutateAsync({ deviceId: device.id, changes: body });
      toast({ title: 'Registre mis à jour', description: `${device.serialNumber} : ${changed} champ${changed > 1 ? 's' : ''} modifié${changed > 1 ? 's' : ''}.`, variant: 'success' });
    } catch (error) {
      if (error instanceof ApiError && error.fields) setErrors(error.fields);
      toastError('Registre non enregistré', error);
    }
  };

  return (
    <div className="grid gap-5">
      <DialogHeader>
        <div className="flex flex-wrap items-center gap-3">
          <DialogTitle className="font-mono">{device.serialNumber}</DialogTitle>
          <StateBadge state={device.functionalState} />
          {device.needsAttention ? <Badge variant="danger">À surveiller</Badge> : null}
        </div>
        <DialogDescription>
          {[device.manufacturer, device.model].filter(Boolean).join(' ') || 'Modèle non renseigné'} · {device.siteName || 'Site non renseigné'}
          {device.city ? ` · ${device.city}` : ''}
        </DialogDescription>
      </DialogHeader>

      <dl className="grid grid-cols-4 gap-3 rounded-md border bg-background p-3 text-sm">
        <div>
          <dt className="text-muted-foreground">Batterie</dt>
          <dd>
            <DueDate day={device.batteryExpiry} />
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Électrodes adultes</dt>
          <dd>
            <DueDate day={device.adultPadsExpiry} />
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Électrodes pédiatriques</dt>
          <dd>{device.pediatricPadsPresent === false ? 'Absentes' : <DueDate day={device.pediatricPadsPresent ? device.pediatricPadsExpiry : null} />}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Prochaine maintenance</dt>
          <dd>
            <DueDate day={device.nextMaintenanceDue} />
          </dd>
        </div>
      </dl>

      <div className="flex flex-wrap gap-2">
        <Button asChild variant="outline">
          <a href={`/api/devices/${device.id}/label`} download>
            <Tag aria-hidden="true" /> Étiquette de maintenance (PDF)
          </a>
        </Button>
      </div>

      <section aria-labelledby="device-visits" className="grid gap-2">
        <h2 id="device-visits" className="text-base font-semibold">
          Historique des visites ({device.visits.length})
        </h2>
        {device.visits.length === 0 ? (
          <p className="rounded-md border border-dashed px-3 py-4 text-center text-sm text-muted-foreground">Aucune visite pour ce défibrillateur.</p>
        ) : (
          <ul className="grid gap-2">
            {device.visits.map((visit) => (
              <li key={visit.missionId} className="grid gap-2 rounded-md border bg-background p-3 text-sm">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-medium">{visit.missionTitle}</span>
                  <Badge variant={visit.isCompleted ? 'success' : 'secondary'}>{visit.isCompleted ? 'Effectué' : 'À faire'}</Badge>
                  {visit.withoutReport ? <Badge variant="warning">sans rapport</Badge> : null}
                </div>
                <p className="text-muted-foreground">
                  {visit.batchTitle ? `Lot « ${visit.batchTitle} »` : 'Sans lot'}
                  {visit.technicianName ? ` · ${visit.technicianName}` : ''}
                  {visit.plannedVisitDate ? ` · passage le ${formatDate(visit.plannedVisitDate)}` : ''}
                  {visit.visitType ? ` · ${visit.visitType}` : ''}
                </p>
                {visit.reports.length > 0 ? (
                  <ul className="grid gap-1.5">
                    {visit.reports.map((report) => (
                      <li key={report.id} className="flex flex-wrap items-center gap-2">
                        <span>
                          Rapport de {report.technicianName} · {report.status === 'final' ? `${report.outcome ?? ''} · version ${report.version}, le ${formatDateTime(report.visitedAt)}` : 'brouillon en cours'}
                        </span>
                        {report.hasPdf ? (
                          <Button asChild size="sm" variant="outline">
                            <a href={`/api/visit-reports/${report.id}/pdf`} download aria-label={`Télécharger le PV de ${report.technicianName}, version ${report.version}`}>
                              <FileDown aria-hidden="true" /> PV
                            </a>
                          </Button>
                        ) : null}
                      </li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>

      <form
        aria-labelledby="device-registry"
        className="grid gap-4"
        onSubmit={(event) => {
          event.preventDefault();
        }}
      >
        <h2 id="device-registry" className="text-base font-semibold">
          Registre
        </h2>
        <fieldset className="grid grid-cols-4 gap-3">
          <legend className="mb-2 text-sm font-semibold text-muted-foreground">Appareil</legend>
          {text('manufacturer', 'Fabricant')}
          {text('model', 'Modèle')}
          <Field id="device-functionalState" label="État de fonctionnement" error={errors.functionalState}>
            <NativeSelect value={form.functionalState} onChange={set('functionalState')}>
              {DEVICE_STATES.map((state) => (
                <option key={state} value={state}>
                  {state}
                </option>
              ))}
            </NativeSelect>
          </Field>
          {text('installedOn', 'Date d’installation', { type: 'date' })}
        </fieldset>
        <fieldset className="grid grid-cols-4 gap-3">
          <legend className="mb-2 text-sm font-semibold text-muted-foreground">Site</legend>
          {text('siteName', 'Nom du site')}
          {text('address', 'Adresse')}
          {text('postalCode', 'Code postal', { maxLength: 5 })}
          {text('city', 'Commune')}
          <Field id="device-latitude" label="Latitude" error={errors.latitude}>
            <Input inputMode="decimal" value={form.latitude} onChange={set('latitude')} />
          </Field>
          <Field id="device-longitude" label="Longitude" error={errors.longitude}>
            <Input inputMode="decimal" value={form.longitude} onChange={set('longitude')} />
          </Field>
          {text('sitePhone', 'Téléphone du site', { type: 'tel' })}
          {text('siteEmail', 'E-mail du site', { type: 'email' })}
        </fieldset>
        <fieldset className="grid grid-cols-4 gap-3">
          <legend className="mb-2 text-sm font-semibold text-muted-foreground">Accès et disponibilité</legend>
          <Field id="device-access" label="Environnement" error={errors.access}>
            <NativeSelect value={form.access} onChange={set('access')}>
              <option value="">Non renseigné</option>
              {DEVICE_ACCESS.map((access) => (
                <option key={access} value={access}>
                  {access}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field id="device-freeAccess" label="Libre d’accès" error={errors.freeAccess}>
            <NativeSelect value={form.freeAccess} onChange={set('freeAccess')}>
              <option value="">Non renseigné</option>
              <option value="oui">Oui</option>
              <option value="non">Non</option>
            </NativeSelect>
          </Field>
          {text('accessFloor', 'Étage', { maxLength: 40 })}
          {text('accessDetails', 'Complément d’accès')}
          <div className="col-span-2">
            {text('openingHours', 'Horaires (format Géo’DAE)', {
              hint: form.openingHours && !checkOpeningHours(form.openingHours) ? `Soit : ${describeOpeningHours(form.openingHours)}` : OPENING_HOURS_EXAMPLE,
              maxLength: 255,
            })}
          </div>
          <div className="col-span-2">{text('availabilityDetails', 'Complément de disponibilité')}</div>
        </fieldset>
        <fieldset className="grid grid-cols-4 gap-3">
          <legend className="mb-2 text-sm font-semibold text-muted-foreground">Exploitant (facultatif, requis pour Géo’DAE)</legend>
          {text('operatorName', 'Raison sociale')}
          {text('operatorSiren', 'SIREN', { maxLength: 11 })}
          {text('operatorPhone', 'Téléphone', { type: 'tel' })}
          {text('operatorEmail', 'E-mail', { type: 'email' })}
        </fieldset>
        <fieldset className="grid grid-cols-4 gap-3">
          <legend className="mb-2 text-sm font-semibold text-muted-foreground">Consommables et maintenance</legend>
          {text('batteryExpiry', 'Péremption batterie', { type: 'date' })}
          {text('adultPadsExpiry', 'Péremption électrodes adultes', { type: 'date' })}
          <Field id="device-pediatricPadsPresent" label="Électrodes pédiatriques" error={errors.pediatricPadsPresent}>
            <NativeSelect value={form.pediatricPadsPresent} onChange={set('pediatricPadsPresent')}>
              <option value="">Non renseigné</option>
              <option value="oui">Présentes</option>
              <option value="non">Absentes</option>
            </NativeSelect>
          </Field>
          {text('pediatricPadsExpiry', 'Péremption électrodes pédiatriques', { type: 'date' })}
          {text('lastMaintenanceOn', 'Dernière maintenance', { type: 'date' })}
          <Field id="device-maintenanceIntervalMonths" label="Périodicité (mois)" error={errors.maintenanceIntervalMonths}>
            <Input type="number" min={1} max={60} value={form.maintenanceIntervalMonths} onChange={set('maintenanceIntervalMonths')} />
          </Field>
          {text('nextMaintenanceDue', 'Prochaine maintenance', { type: 'date', hint: 'Vide : dernière maintenance + périodicité' })}
        </fieldset>
        <div className="sticky bottom-0 flex items-center justify-end gap-3 border-t bg-card pt-3">
          <p className="mr-auto text-sm text-muted-foreground" role="status">
            {changed === 0 ? 'Aucune modification' : `${changed} champ${changed > 1 ? 's' : ''} modifié${changed > 1 ? 's' : ''}`}
          </p>
          <Button variant="outline" disabled={changed === 0 || update.isPending} onClick={() => setForm(toForm(device))}>
            Annuler les modifications
          </Button>
          <ConfirmDialog
            trigger={
              <Button disabled={changed === 0} loading={update.isPending}>
                <Save aria-hidden="true" /> Enregistrer
              </Button>
            }
            title="Enregistrer les modifications du registre ?"
            description={`${changed} champ${changed > 1 ? 's' : ''} du défibrillateur ${device.serialNumber} ser${changed > 1 ? 'ont' : 'a'} modifié${changed > 1 ? 's' : ''}.`}
            confirmLabel="Enregistrer"
            destructive={false}
            onConfirm={save}
          />
        </div>
      </form>
    </div>
  );
}
