import { useEffect, useRef, useState } from 'react';
import { Marker, Popup } from 'react-leaflet';
import type { LatLngBoundsExpression, Popup as LeafletPopup } from 'leaflet';
import { formatDate, formatEurosShort } from '@maillon/common/format';
import type { AvailableLot } from '@maillon/common/schemas/lots';
import type { Technician } from '@maillon/common/schemas/technicians';
import { ClusterLayer, labelMarker, onActivate } from '@/components/map/cluster-layer';
import { homeIcon, siteIcon } from '@/components/map/icons';
import { LegendSwatch, MapLegend } from '@/components/map/map-legend';
import { FitBounds, MapView } from '@/components/map/map-view';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { usePublicConfig } from '@/features/auth/api/get-public-config-query';
import type { AvailableLotsFilters } from '../api/available-lots-path';
import { useLot } from '../api/get-lot';
import { useLotsMap } from '../api/get-lots-map';
import { ApplyAction, LotDistance } from './lot-card';

const LOT_COLOUR = '#1d4ed8';

/** The popup of a lot: the card's essentials and Postuler (the same apply flow as the list). */
function LotPopup({
  technician,
  lotId,
  applying,
  onApply,
  onResize,
}: {
  technician: Technician;
  lotId: string;
  applying: boolean;
  onApply: (lot: AvailableLot) => void;
  /** The content changed size: the popup places itself again. */
  onResize: () => void;
}) {
  const lot = useLot(technician.id, lotId);
  useEffect(onResize, [lot.status, lot.data, applying, onResize]);
  if (lot.isPending) return <p className="text-sm">Chargement du lot…</p>;
  if (lot.isError) return <ErrorState error={lot.error} />;
  const data = lot.data;
  return (
    <div className="grid w-64 max-w-full gap-2 text-sm" role="group" aria-label={`Lot ${data.title}`}>
      <p className="text-base font-semibold leading-snug">{data.title}</p>
      <p>
        <span className="text-lg font-bold tabular-nums">{formatEurosShort(data.price)}</span> <span className="text-muted-foreground">HT</span>
      </p>
      <LotDistance lot={data} />
      <p className="text-muted-foreground">
        {data.defibrillatorCount} défibrillateur{data.defibrillatorCount > 1 ? 's' : ''} · date limite {data.deadline ? formatDate(data.deadline) : 'à définir'}
      </p>
      <ApplyAction lot={data} technician={technician} applying={applying} onApply={() => onApply(data)} />
    </div>
  );
}

/**
 * « Carte » of Trouver des missions: a marker per lot at the mean point of its sites, grouped when close, the
 * technician's address, and a popup to apply. Lazy: its code (Leaflet, the outline) loads when the map opens.
 */
export function LotsMap({
  technician,
  filters,
  applyingId,
  onApply,
}: {
  technician: Technician;
  filters: Omit<AvailableLotsFilters, 'sort'>;
  applyingId: string | null;
  onApply: (lot: AvailableLot) => void;
}) {
  const map = useLotsMap(technician.id, filters);
  const config = usePublicConfig();
  const [open, setOpen] = useState<{ id: string; lat: number; lon: number } | null>(null);
  const popupRef = useRef<LeafletPopup | null>(null);
  const resizePopup = useRef(() => popupRef.current?.update()).current;

  if (map.isPending) return <Skeleton className="h-[60vh] min-h-80" />;
  if (map.isError) return <ErrorState error={map.error} />;
  const { lots, home, total, unlocated } = map.data;
  const points: [number, number][] = [...lots.slice(0, 50).map((l) => [l.lat, l.lon] as [number, number]), ...(home ? [[home.lat, home.lon] as [number, number]] : [])];
  const bounds: LatLngBoundsExpression | null = points.length > 0 ? points : null;

  return (
    <div className="grid gap-3">
      <MapView tiles={config.data?.map} bounds={bounds} label="Carte des lots de missions" className="h-[60vh] min-h-80">
        <FitBounds bounds={bounds} fitKey={JSON.stringify(filters)} />
        {home ? <Marker position={[home.lat, home.lon]} icon={homeIcon()} title="Votre adresse" eventHandlers={{ add: labelMarker('Votre adresse') }} /> : null}
        <ClusterLayer
          items={lots}
          groupLabel={(count) => `${count} lots proches : zoomer`}
          renderItem={(lot) => (
            <Marker
              position={[lot.lat, lot.lon]}
              icon={siteIcon(LOT_COLOUR, lot.approximate, open?.id === lot.id)}
              title={lot.title}
              eventHandlers={{ add: labelMarker(`Lot ${lot.title}`), ...onActivate(() => setOpen({ id: lot.id, lat: lot.lat, lon: lot.lon })) }}
            />
          )}
        />
        {open ? (
          <Popup
            key={open.id}
            ref={popupRef}
            position={[open.lat, open.lon]}
            offset={[0, -6]}
            maxWidth={288}
            minWidth={220}
            autoPanPadding={[16, 16]}
            eventHandlers={{ remove: () => setOpen(null) }}
          >
            <LotPopup technician={technician} lotId={open.id} applying={applyingId === open.id} onApply={onApply} onResize={resizePopup} />
          </Popup>
        ) : null}
      </MapView>
      <MapLegend
        items={[
          { key: 'lot', swatch: <LegendSwatch colour={LOT_COLOUR} />, label: 'Lot (sites localisés)' },
          { key: 'approx', swatch: <LegendSwatch colour={LOT_COLOUR} hollow />, label: 'Position approximative (code postal)' },
          ...(home ? [{ key: 'home', swatch: <LegendSwatch colour="#111827" square />, label: 'Votre adresse' }] : []),
        ]}
      />
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {total} {total > 1 ? 'lots sur la carte' : 'lot sur la carte'}
        {lots.length < total ? ` (les ${lots.length} plus proches affichés)` : ''}
        {unlocated > 0 ? ` · ${unlocated} sans position, visibles dans la liste` : ''}
      </p>
    </div>
  );
}
