import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { PackageSearch, Plus, X } from 'lucide-react';
import { formatTotalOf } from '@maillon/common/format';
import { SHIPMENT_FILTER_LABELS, SHIPMENT_FILTERS, type Shipment, type ShipmentFilter } from '@maillon/common/schemas/shipments';
import { TechnicianPicker } from '@/components/forms/technician-picker';
import { PageHeader } from '@/components/layout/dashboard-shell';
import { Button } from '@/components/ui/button';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/feedback';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Pager } from '@/components/ui/pager';
import { Pills } from '@/components/ui/pills';
import { toast, toastError } from '@/components/ui/use-toast';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { useCancelShipment } from '../api/cancel-shipment';
import { useShipmentSummary } from '../api/get-shipment-summary';
import { SHIPMENTS_PAGE_SIZE, useShipments } from '../api/get-shipments';
import { useShipShipment } from '../api/ship-shipment';
import { PartsProposals } from './parts-proposals';
import { ShipmentCard } from './shipment-card';
import { ShipmentFormDialog } from './shipment-form-dialog';

export function ShipmentsTab() {
  // "Voir Colis" on a lot card opens this tab with ?batchId=: the list starts filtered on that lot.
  const [searchParams, setSearchParams] = useSearchParams();
  const batchId = searchParams.get('batchId') ?? '';
  const [technicianId, setTechnicianId] = useState('');
  const [searchText, setSearchText] = useState('');
  const [status, setStatus] = useState<ShipmentFilter>('all');
  const [offset, setOffset] = useState(0);
  const [editing, setEditing] = useState<Shipment | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const search = useDebouncedValue(searchText.trim(), 300);

  const list = useShipments({ technicianId, batchId, search, status, offset });
  const summary = useShipmentSummary({ technicianId, batchId, search });
  const ship = useShipShipment();
  const cancel = useCancelShipment();

  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;
  const capped = list.data?.capped ?? false;
  const hasFilters = Boolean(technicianId || batchId || search || status !== 'all');
  const lotTitle = batchId ? (items.find((s) => s.batchId === batchId)?.missionTitle ?? 'lot sélectionné') : null;
  const busyId = ship.isPending ? ship.variables : cancel.isPending ? cancel.variables : undefined;

  if (!list.isPlaceholderData && list.isSuccess && items.length === 0 && offset > 0)
    setOffset(Math.max(0, offset - SHIPMENTS_PAGE_SIZE));

  const clearLot = () => {
    const next = new URLSearchParams(searchParams);
    next.delete('batchId');
    setSearchParams(next, { replace: true });
    setOffset(0);
  };

  const onShip = (shipment: Shipment) =>
    ship
      .mutateAsync(shipment.id, {
        onSuccess: () =>
          toast({
            title: 'Expédition marquée comme expédiée',
            description: shipment.missionTitle ?? undefined,
            variant: 'success',
          }),
        onError: (error) => toastError("Erreur lors de l'expédition", error),
      })
      .catch(() => undefined);

  const onCancel = (shipment: Shipment) =>
    cancel
      .mutateAsync(shipment.id, {
        onSuccess: () =>
          toast({ title: 'Expédition annulée', description: shipment.missionTitle ?? undefined, variant: 'success' }),
        onError: (error) => toastError("Erreur lors de l'annulation", error),
      })
      .catch(() => undefined);

  return (
    <section>
      <PageHeader
        title="Expéditions"
        description="Colis de matériel envoyés aux techniciens par Mondial Relay."
        actions={
          <Button
            onClick={() => {
              setEditing(null);
              setFormOpen(true);
            }}
          >
            <Plus aria-hidden="true" /> Nouvelle expédition
          </Button>
        }
      />

      <PartsProposals />

      <form
        role="search"
        aria-label="Filtrer les expéditions"
        className="mb-4 grid grid-cols-[1fr_2fr] gap-3"
        onSubmit={(e) => e.preventDefault()}
      >
        <Field id="shipments-technician" label="Technicien">
          <TechnicianPicker
            source="shipments"
            value={technicianId}
            onChange={(technician) => {
              setTechnicianId(technician?.id ?? '');
              setOffset(0);
            }}
            placeholder="Tous les techniciens"
          />
        </Field>
        <Field id="shipments-search" label="Recherche">
          <Input
            type="search"
            placeholder="Mission, technicien, destination, contenu, numéro de suivi..."
            value={searchText}
            maxLength={200}
            onChange={(e) => {
              setSearchText(e.target.value);
              setOffset(0);
            }}
          />
        </Field>
      </form>

      {batchId ? (
        <p className="mb-4 inline-flex items-center gap-2 rounded-full border bg-card py-1 pl-3 pr-1 text-sm">
          Colis du lot : <strong>{lotTitle}</strong>
          <Button variant="ghost" size="sm" className="h-7 px-2" onClick={clearLot} aria-label="Retirer le filtre du lot">
            <X aria-hidden="true" />
          </Button>
        </p>
      ) : null}

      <Pills
        label="Statut des expéditions"
        className="mb-5"
        value={status}
        onChange={(value) => {
          setStatus(value);
          setOffset(0);
        }}
        options={SHIPMENT_FILTERS.map((value) => ({
          value,
          label: SHIPMENT_FILTER_LABELS[value],
          count: summary.data?.counts[value],
        }))}
      />

      {list.isPending ? (
        <div className="grid grid-cols-2 gap-4" aria-busy="true">
          <Skeleton className="h-56" />
          <Skeleton className="h-56" />
        </div>
      ) : list.isError ? (
        <ErrorState error={list.error} />
      ) : items.length === 0 ? (
        <EmptyState icon={<PackageSearch />} title="Aucune expédition trouvée.">
          {hasFilters ? 'Modifiez les filtres ou la recherche.' : null}
        </EmptyState>
      ) : (
        <>
          <p className="mb-3 text-sm text-muted-foreground" aria-live="polite">
            {formatTotalOf(total, capped, 'expédition', 'expéditions')}
          </p>
          <ul
            className={list.isPlaceholderData ? 'grid grid-cols-2 gap-4 opacity-60' : 'grid grid-cols-2 gap-4'}
            aria-label="Expéditions"
          >
            {items.map((shipment) => (
              <li key={shipment.id} className="grid">
                <ShipmentCard
                  shipment={shipment}
                  busy={busyId === shipment.id}
                  onShip={() => onShip(shipment)}
                  onCancel={() => onCancel(shipment)}
                  onEdit={() => {
                    setEditing(shipment);
                    setFormOpen(true);
                  }}
                />
              </li>
            ))}
          </ul>
          <Pager
            className="mt-5"
            offset={offset}
            limit={SHIPMENTS_PAGE_SIZE}
            total={total}
            capped={capped}
            onChange={setOffset}
            label="Pages des expéditions"
          />
        </>
      )}

      <ShipmentFormDialog
        open={formOpen}
        onOpenChange={(open) => {
          setFormOpen(open);
          if (!open) setEditing(null);
        }}
        shipment={editing}
        defaultBatchId={batchId || undefined}
      />
    </section>
  );
}
