import { useState } from 'react';
import { FileSpreadsheet, HeartPulse, Plus, X } from 'lucide-react';
import { DEVICE_STATES, type DeviceState } from '@maillon/common/enums';
import { formatTotalOf } from '@maillon/common/format';
import { DUE_SUBJECT_LABELS, DUE_SUBJECTS, type DueFilter, type DueSubject } from '@maillon/common/schemas/devices';
import { PageHeader } from '@/components/layout/dashboard-shell';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/feedback';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect } from '@/components/ui/input';
import { Pager } from '@/components/ui/pager';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { DEVICES_PAGE_SIZE, useDevices, type DeviceFilters } from '../api/get-devices';
import { CreateDeviceDialog } from './create-device-dialog';
import { DeviceDialog } from './device-dialog';
import { DueDate, StateBadge } from './device-values';
import { GeodaeExportDialog } from './geodae-export-dialog';

const DUE_LABELS: Record<DueFilter, string> = { expired: 'Dépassée', '30': 'Sous 30 jours', '60': 'Sous 60 jours', '90': 'Sous 90 jours' };

/** « Parc DAE »: the device registry, searched, filtered and paged on the server (issue 16). */
export function DevicesTab() {
  const [searchText, setSearchText] = useState('');
  const [state, setState] = useState<DeviceState | ''>('');
  const [due, setDue] = useState<DueFilter | ''>('');
  const [dueSubject, setDueSubject] = useState<DueSubject>('any');
  const [attention, setAttention] = useState(false);
  const [offset, setOffset] = useState(0);
  const [openId, setOpenId] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [exporting, setExporting] = useState(false);
  const search = useDebouncedValue(searchText.trim(), 300);
  const filters: DeviceFilters = { search, state, due, dueSubject, attention, offset };
  const list = useDevices(filters);
  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;
  const capped = list.data?.capped ?? false;
  const hasFilters = Boolean(search || state || due || attention);
  const reset = <T,>(setter: (value: T) => void) => (value: T) => {
    setter(value);
    setOffset(0);
  };

  return (
    <section>
      <PageHeader
        title="Parc DAE"
        description="Chaque défibrillateur, son état, ses péremptions, ses visites et procès-verbaux ; l’export Géo’DAE."
        actions={
          <>
            <Button variant="outline" onClick={() => setExporting(true)}>
              <FileSpreadsheet aria-hidden="true" /> Export Géo’DAE
            </Button>
            <Button onClick={() => setCreating(true)}>
              <Plus aria-hidden="true" /> Ajouter un défibrillateur
            </Button>
          </>
        }
      />

      <form role="search" aria-label="Filtrer le parc" className="mb-4 grid grid-cols-[2fr_1fr_1fr_1.3fr_auto] items-end gap-3" onSubmit={(e) => e.preventDefault()}>
        <Field id="devices-search" label="Recherche">
          <Input type="search" placeholder="N° de série, site, commune, modèle, exploitant…" value={searchText} maxLength={200} onChange={(e) => reset(setSearchText)(e.target.value)} />
        </Field>
        <Field id="devices-state" label="État de fonctionnement">
          <NativeSelect value={state} onChange={(e) => reset(setState)(e.target.value as DeviceState | '')}>
            <option value="">Tous les états</option>
            {DEVICE_STATES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id="devices-due" label="Échéance">
          <NativeSelect value={due} onChange={(e) => reset(setDue)(e.target.value as DueFilter | '')}>
            <option value="">Toutes</option>
            {(Object.keys(DUE_LABELS) as DueFilter[]).map((value) => (
              <option key={value} value={value}>
                {DUE_LABELS[value]}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id="devices-due-subject" label="Échéance de">
          <NativeSelect value={dueSubject} disabled={!due} onChange={(e) => reset(setDueSubject)(e.target.value as DueSubject)}>
            {DUE_SUBJECTS.map((value) => (
              <option key={value} value={value}>
                {DUE_SUBJECT_LABELS[value]}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <label className="flex h-10 cursor-pointer items-center gap-2 whitespace-nowrap rounded-md border bg-card px-3 text-sm">
          <input type="checkbox" className="size-4 accent-[var(--color-primary)]" checked={attention} onChange={(e) => reset(setAttention)(e.target.checked)} />À surveiller
        </label>
      </form>
      <div className="mb-3 flex items-center justify-between gap-3 text-sm text-muted-foreground">
        <p role="status">
          {list.isSuccess ? formatTotalOf(total, capped, 'défibrillateur', 'défibrillateurs') : ' '}
        </p>
        {hasFilters ? (
          <Button
            variant="ghost"
            size="sm"
            onClick={() => {
              setSearchText('');
              setState('');
              setDue('');
              setDueSubject('any');
              setAttention(false);
              setOffset(0);
            }}
          >
            <X aria-hidden="true" /> Effacer les filtres
          </Button>
        ) : null}
      </div>

      {list.isPending ? (
        <div className="grid gap-2" aria-busy="true">
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} className="h-12" />
          ))}
        </div>
      ) : list.isError ? (
        <ErrorState error={list.error} />
      ) : items.length === 0 ? (
        <EmptyState icon={<HeartPulse />} title={hasFilters ? 'Aucun défibrillateur ne correspond' : 'Aucun défibrillateur enregistré'}>
          {hasFilters ? 'Modifiez ou effacez les filtres.' : 'Les défibrillateurs apparaissent ici dès qu’une visite les mentionne.'}
        </EmptyState>
      ) : (
        <div className="overflow-x-auto rounded-lg border bg-card">
          <table className="w-full table-fixed text-sm">
            <caption className="sr-only">Défibrillateurs du parc, échéance la plus proche en premier</caption>
            <thead className="bg-muted text-left text-xs uppercase tracking-wide text-muted-foreground">
              <tr>
                <th scope="col" className="w-44 px-3 py-2">N° de série</th>
                <th scope="col" className="px-3 py-2">Site</th>
                <th scope="col" className="w-44 px-3 py-2">État</th>
                <th scope="col" className="w-28 px-3 py-2">Batterie</th>
                <th scope="col" className="w-28 px-3 py-2">Électrodes adultes</th>
                <th scope="col" className="w-32 px-3 py-2">Prochaine maintenance</th>
                <th scope="col" className="w-28 px-3 py-2">Visites</th>
                <th scope="col" className="w-24 px-2 py-2">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((device) => (
                <tr key={device.id} className="border-t align-top hover:bg-muted/40">
                  <td className="px-3 py-2">
                    <p className="truncate font-mono font-medium" title={device.serialNumber}>
                      {device.serialNumber}
                    </p>
                    <p className="truncate text-xs text-muted-foreground">{[device.manufacturer, device.model].filter(Boolean).join(' ') || 'Modèle non renseigné'}</p>
                  </td>
                  <td className="px-3 py-2">
                    <p className="truncate" title={device.siteName ?? undefined}>
                      {device.siteName || '—'}
                    </p>
                    <p className="truncate text-xs text-muted-foreground">{[device.postalCode, device.city].filter(Boolean).join(' ')}</p>
                  </td>
                  <td className="px-3 py-2">
                    <StateBadge state={device.functionalState} />
                  </td>
                  <td className="px-3 py-2">
                    <DueDate day={device.batteryExpiry} />
                  </td>
                  <td className="px-3 py-2">
                    <DueDate day={device.adultPadsExpiry} />
                  </td>
                  <td className="px-3 py-2">
                    <DueDate day={device.nextMaintenanceDue} />
                  </td>
                  <td className="px-3 py-2">
                    <span className="block tabular-nums">{device.visitCount}</span>
                    {device.withoutReportCount > 0 ? <Badge variant="warning">{device.withoutReportCount} sans rapport</Badge> : null}
                  </td>
                  <td className="px-3 py-2 text-right">
                    <Button size="sm" variant="outline" onClick={() => setOpenId(device.id)} aria-label={`Ouvrir ${device.serialNumber}`}>
                      Ouvrir
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager className="mt-4" offset={offset} limit={DEVICES_PAGE_SIZE} total={total} capped={capped} onChange={setOffset} label="Pages du parc" />

      <DeviceDialog deviceId={openId} onClose={() => setOpenId(null)} />
      {creating ? (
        <CreateDeviceDialog
          onClose={() => setCreating(false)}
          onCreated={(id) => {
            setCreating(false);
            setOpenId(id);
          }}
        />
      ) : null}
      {exporting ? <GeodaeExportDialog onClose={() => setExporting(false)} /> : null}
    </section>
  );
}
