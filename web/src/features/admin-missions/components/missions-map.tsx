import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Marker, useMapEvents } from 'react-leaflet';
import type { LatLngBounds, LatLngBoundsExpression } from 'leaflet';
import { FolderInput, Search, X } from 'lucide-react';
import type { MapMission } from '@maillon/common/schemas/admin-missions';
import { AreaSelection, type SelectionMode } from '@/components/map/area-selection';
import { ClusterLayer, labelMarker } from '@/components/map/cluster-layer';
import { lotColours } from '@/components/map/geometry';
import { siteIcon } from '@/components/map/icons';
import { LegendSwatch, MapLegend } from '@/components/map/map-legend';
import { FitBounds, MapView } from '@/components/map/map-view';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { Pills } from '@/components/ui/pills';
import { usePublicConfig } from '@/features/auth/api/get-public-config-query';
import { useMissionsMap, type MissionsMapParams } from '../api/get-missions-map';
import type { Selection } from './lot-card';

const UNSORTED_COLOUR = '#111827';

type Tool = 'pan' | SelectionMode;

/** Keeps the current view of the map, to search « dans cette zone ». */
function ViewTracker({ onView }: { onView: (view: NonNullable<MissionsMapParams['view']>) => void }) {
  const map = useMapEvents({ moveend: () => onView(viewOf(map.getBounds())) });
  useEffect(() => onView(viewOf(map.getBounds())), [map, onView]);
  return null;
}

function viewOf(bounds: LatLngBounds): NonNullable<MissionsMapParams['view']> {
  return { south: bounds.getSouth(), west: bounds.getWest(), north: bounds.getNorth(), east: bounds.getEast() };
}

/**
 * The admin's map of Missions & Lots (issue 18): « À trier » missions and those of the active lots (one colour per lot,
 * legend), selected with a rectangle or a lasso (or one by one), then moved with the existing « Organiser » dialog.
 */
export function MissionsMap({ selection, onOrganise, onClear }: { selection: Selection & { ids: string[] }; onOrganise: () => void; onClear: () => void }) {
  const [withLots, setWithLots] = useState(true);
  const [searchedView, setSearchedView] = useState<MissionsMapParams['view']>(undefined);
  const currentView = useRef<MissionsMapParams['view']>(undefined);
  const trackView = useCallback((view: NonNullable<MissionsMapParams['view']>) => {
    currentView.current = view;
  }, []);
  const [tool, setTool] = useState<Tool>('rectangle');
  const map = useMissionsMap({ scope: withLots ? 'all' : 'unsorted', view: searchedView });
  const config = usePublicConfig();

  const data = map.data;
  const colours = useMemo(() => lotColours(data?.lots.map((lot) => lot.id) ?? []), [data]);
  const lotTitles = useMemo(() => new Map(data?.lots.map((lot) => [lot.id, lot.title]) ?? []), [data]);
  const counts = useMemo(() => {
    const byLot = new Map<string | null, number>();
    for (const m of data?.missions ?? []) byLot.set(m.batchId, (byLot.get(m.batchId) ?? 0) + 1);
    return byLot;
  }, [data]);

  if (map.isPending) return <Skeleton className="h-[calc(100vh-23rem)] min-h-96" />;
  if (map.isError) return <ErrorState error={map.error} />;
  const { missions, lots, more, unlocatedUnsorted } = map.data;
  const bounds: LatLngBoundsExpression | null = missions.length > 0 ? missions.map((m) => [m.lat, m.lon] as [number, number]) : null;
  const colourOf = (m: MapMission) => (m.batchId ? (colours.get(m.batchId) ?? '#6b7280') : UNSORTED_COLOUR);
  const describe = (m: MapMission) => `${m.title} (${m.batchId ? `lot ${lotTitles.get(m.batchId) ?? ''}` : 'À trier'})${selection.isSelected(m.id) ? ', sélectionnée' : ''}`;
  const selectedHere = missions.filter((m) => selection.isSelected(m.id)).length;
  const n = selection.ids.length;

  return (
    <section aria-label="Carte des missions" className="grid gap-3">
      <div className="flex flex-wrap items-center gap-3">
        <Pills
          label="Outil de la carte"
          value={tool}
          onChange={setTool}
          options={[
            { value: 'rectangle', label: 'Sélection rectangle' },
            { value: 'lasso', label: 'Sélection lasso' },
            { value: 'pan', label: 'Déplacer la carte' },
          ]}
        />
        <div className="ml-auto flex flex-wrap gap-2">
          <Button variant="outline" onClick={onClear} disabled={n === 0}>
            <X aria-hidden="true" /> Vider la sélection
          </Button>
          <Button onClick={onOrganise} disabled={n === 0}>
            <FolderInput aria-hidden="true" /> Organiser la sélection ({n})
          </Button>
        </div>
      </div>
      <p className="-mt-1 text-sm text-muted-foreground">
        {tool === 'rectangle'
          ? 'Tracez un rectangle sur la carte pour ajouter les missions qu’il contient à la sélection ; un clic sur une mission l’ajoute ou la retire.'
          : tool === 'lasso'
            ? 'Entourez des missions à main levée pour les ajouter à la sélection.'
            : 'Faites glisser la carte pour vous déplacer ; la molette ou les boutons zooment.'}
      </p>
      <MapView tiles={config.data?.map} bounds={bounds} label="Carte des missions à trier et des lots" className="h-[calc(100vh-23rem)] min-h-96">
        <FitBounds bounds={bounds} fitKey={`${withLots}:${searchedView ? 'view' : 'all'}:${missions.length > 0}`} />
        <ViewTracker onView={trackView} />
        <AreaSelection mode={tool === 'pan' ? null : tool} items={missions} onSelect={(ids) => selection.set(ids, true)} />
        <ClusterLayer
          items={missions}
          groupLabel={(count) => `${count} missions proches : zoomer`}
          groupColour={(members) => {
            const first = members[0]!.batchId;
            return members.every((m) => m.batchId === first) ? colourOf(members[0]!) : undefined;
          }}
          renderItem={(mission) => (
            <Marker
              key={`${mission.id}:${selection.isSelected(mission.id)}`}
              position={[mission.lat, mission.lon]}
              icon={siteIcon(colourOf(mission), mission.approximate, selection.isSelected(mission.id))}
              title={describe(mission)}
              eventHandlers={{ add: labelMarker(describe(mission)), click: () => selection.set([mission.id], !selection.isSelected(mission.id)) }}
            />
          )}
        />
      </MapView>
      <MapLegend
        items={[
          { key: 'unsorted', swatch: <LegendSwatch colour={UNSORTED_COLOUR} />, label: `À trier (${counts.get(null) ?? 0})` },
          ...lots.map((lot) => ({ key: lot.id, swatch: <LegendSwatch colour={colours.get(lot.id)} />, label: `${lot.title} (${counts.get(lot.id) ?? 0})` })),
          { key: 'approx', swatch: <LegendSwatch colour="#6b7280" hollow />, label: 'Position approximative (code postal)' },
        ]}
      />
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {missions.length} mission{missions.length > 1 ? 's' : ''} sur la carte, {selectedHere} sélectionnée{selectedHere > 1 ? 's' : ''}
        {more ? ' — d’autres missions sont dans cette zone : zoomez puis cherchez dans la zone pour les voir toutes' : ''}
        {unlocatedUnsorted > 0 ? ` · ${unlocatedUnsorted} mission${unlocatedUnsorted > 1 ? 's' : ''} à trier sans position (voir la liste)` : ''}
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <label className="flex items-center gap-2 text-sm">
          <Checkbox checked={withLots} onCheckedChange={(checked) => setWithLots(checked === true)} aria-label="Afficher les missions des lots actifs" />
          Missions des lots actifs
        </label>
        <Button variant="outline" size="sm" onClick={() => setSearchedView(currentView.current)}>
          <Search aria-hidden="true" /> Chercher dans cette zone
        </Button>
        {searchedView ? (
          <Button variant="ghost" size="sm" onClick={() => setSearchedView(undefined)}>
            Toute la France
          </Button>
        ) : null}
      </div>
    </section>
  );
}
