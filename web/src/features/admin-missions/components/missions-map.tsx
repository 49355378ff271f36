import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Marker, useMap, useMapEvents } from 'react-leaflet';
import type { LatLngBounds, LatLngBoundsExpression } from 'leaflet';
import { FolderInput, Search, X } from 'lucide-react';
import { formatCount } from '@maillon/common/format';
import type { MapCluster, MapMission } from '@maillon/common/schemas/admin-missions';
import { AreaSelection, type SelectionMode } from '@/components/map/area-selection';
import { ClusterLayer, labelMarker, onActivate } from '@/components/map/cluster-layer';
import { lotColours } from '@/components/map/geometry';
import { clusterIcon, siteIcon } from '@/components/map/icons';
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

/** Opening a group of missions at one address zooms to a street's scale, not closer. */
const GROUP_ZOOM_MAX = 16;

/** A group's accessible name: how many missions, of which « À trier ». */
function groupName(group: MapCluster): string {
  const unsorted = group.unsorted === group.count ? ', toutes à trier' : group.unsorted > 0 ? `, dont ${formatCount(group.unsorted)} à trier` : '';
  return `${formatCount(group.count)} mission${group.count > 1 ? 's' : ''} dans ce secteur${unsorted} : zoomer`;
}

/**
 * The server's groups (decision 041), when the view holds more missions than the map draws one by one: a bubble per
 * sector with its count; opening one zooms onto most of its missions (their spread) and searches that view (its
 * missions, or smaller groups).
 */
function MissionGroups({ groups, onOpen }: { groups: readonly MapCluster[]; onOpen: (view: NonNullable<MissionsMapParams['view']>) => void }) {
  const map = useMap();
  // A group's mean lies within its own cell: one key per group.
  return groups.map((group) => (
    <Marker
      key={`${group.lat}:${group.lon}`}
      position={[group.lat, group.lon]}
      icon={clusterIcon(group.count, group.unsorted === group.count ? UNSORTED_COLOUR : undefined)}
      title={groupName(group)}
      eventHandlers={{
        add: labelMarker(groupName(group)),
        ...onActivate(() => {
          const spread: LatLngBoundsExpression = [
            [group.south, group.west],
            [group.north, group.east],
          ];
          map.fitBounds(spread, { padding: [28, 28], maxZoom: GROUP_ZOOM_MAX, animate: false });
          onOpen(viewOf(map.getBounds()));
        }),
      }}
    />
  ));
}

/**
 * The admin's map of Missions & Lots (issue 18): « À trier » missions and those of the active lots (one colour per lot,
 * legend), selected with a rectangle or a lasso (or one by one), then moved with the existing « Organiser » dialog. A
 * view holding more than the map draws one by one comes in groups per sector (decision 041).
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
  const { missions, lots, more, clusters, unlocatedUnsorted } = map.data;
  const grouped = clusters.length > 0;
  const placed = grouped ? clusters : missions;
  const bounds: LatLngBoundsExpression | null = placed.length > 0 ? placed.map((m) => [m.lat, m.lon] as [number, number]) : null;
  const inGroups = clusters.reduce((sum, group) => sum + group.count, 0);
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
        {grouped
          ? 'Ouvrez un groupe (clic, ou Entrée au clavier) pour zoomer sur son secteur ; ses missions se sélectionnent une fois affichées.'
          : tool === 'rectangle'
            ? 'Tracez un rectangle sur la carte pour ajouter les missions qu’il contient à la sélection ; un clic sur une mission l’ajoute ou la retire.'
            : tool === 'lasso'
              ? 'Entourez des missions à main levée pour les ajouter à la sélection.'
              : 'Faites glisser la carte pour vous déplacer ; la molette ou les boutons zooment.'}
      </p>
      <MapView tiles={config.data?.map} bounds={bounds} label="Carte des missions à trier et des lots" className="h-[calc(100vh-23rem)] min-h-96">
        {/* Over all of France, the map fits what it shows once it has arrived; a searched view (a zone chosen, a group
            opened) stays where it is. */}
        <FitBounds
          bounds={searchedView || map.isPlaceholderData ? null : bounds}
          fitKey={searchedView ? 'view' : `all:${withLots}:${grouped}:${placed.length > 0}:${map.isPlaceholderData}`}
        />
        <ViewTracker onView={trackView} />
        {/* Groups are opened with a click: no drawing over them (the selection is made of missions, once drawn). */}
        <AreaSelection mode={tool === 'pan' || grouped ? null : tool} items={missions} onSelect={(ids) => selection.set(ids, true)} />
        <MissionGroups groups={clusters} onOpen={setSearchedView} />
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
              eventHandlers={{ add: labelMarker(describe(mission)), ...onActivate(() => selection.set([mission.id], !selection.isSelected(mission.id))) }}
            />
          )}
        />
      </MapView>
      <MapLegend
        items={
          grouped
            ? [
                { key: 'unsorted', swatch: <LegendSwatch colour={UNSORTED_COLOUR} />, label: 'Secteur de missions à trier' },
                ...(withLots ? [{ key: 'mixed', swatch: <LegendSwatch colour="#1e3a8a" />, label: 'Secteur de missions à trier et de lots actifs' }] : []),
              ]
            : [
                { key: 'unsorted', swatch: <LegendSwatch colour={UNSORTED_COLOUR} />, label: `À trier (${counts.get(null) ?? 0})` },
                ...lots.map((lot) => ({ key: lot.id, swatch: <LegendSwatch colour={colours.get(lot.id)} />, label: `${lot.title} (${counts.get(lot.id) ?? 0})` })),
                { key: 'approx', swatch: <LegendSwatch colour="#6b7280" hollow />, label: 'Position approximative (code postal)' },
              ]
        }
      />
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {grouped
          ? `${formatCount(inGroups)} missions sur la carte, regroupées par secteur : ouvrez un groupe pour zoomer sur son secteur et voir ses missions`
          : `${missions.length} mission${missions.length > 1 ? 's' : ''} sur la carte, ${selectedHere} sélectionnée${selectedHere > 1 ? 's' : ''}`}
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
