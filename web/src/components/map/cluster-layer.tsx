import { useMemo, useState, type ReactNode } from 'react';
import { Marker, useMap, useMapEvents } from 'react-leaflet';
import L from 'leaflet';
import { gridClusters } from './geometry';
import { clusterIcon } from './icons';

/** Markers closer than this many pixels form a group, below the zoom where every marker shows on its own. */
const CELL_PX = 56;
const UNCLUSTERED_ZOOM = 15;
/** Opening a group zooms onto its markers, but not closer than a town's scale (the outline stays readable). */
const GROUP_ZOOM_MAX = 13;

/**
 * Grid clustering (docs/decisions/025): at each zoom, the markers of one screen cell become a numbered group;
 * activating a group zooms onto its markers. Only markers near the view are drawn.
 */
export function ClusterLayer<T extends { id: string; lat: number; lon: number }>({
  items,
  renderItem,
  groupLabel,
  groupColour,
}: {
  items: readonly T[];
  renderItem: (item: T) => ReactNode;
  /** Accessible name of a group of `count` markers. */
  groupLabel: (count: number) => string;
  groupColour?: (members: readonly T[]) => string | undefined;
}) {
  const map = useMap();
  const [view, setView] = useState(() => ({ zoom: map.getZoom(), bounds: map.getBounds() }));
  useMapEvents({
    moveend: () => setView({ zoom: map.getZoom(), bounds: map.getBounds() }),
    zoomend: () => setView({ zoom: map.getZoom(), bounds: map.getBounds() }),
  });
  const clusters = useMemo(() => {
    const padded = view.bounds.pad(0.5);
    const visible = items.filter((item) => padded.contains([item.lat, item.lon]));
    if (view.zoom >= UNCLUSTERED_ZOOM) return visible.map((item) => ({ key: item.id, items: [item], lat: item.lat, lon: item.lon }));
    const zoom = Math.round(view.zoom);
    return gridClusters(visible, (item) => map.project([item.lat, item.lon], zoom), CELL_PX);
  }, [items, view, map]);

  return (
    <>
      {clusters.map((cluster) =>
        cluster.items.length === 1 ? (
          <FragmentKeyed key={cluster.key}>{renderItem(cluster.items[0]!)}</FragmentKeyed>
        ) : (
          <Marker
            key={cluster.key}
            position={[cluster.lat, cluster.lon]}
            icon={clusterIcon(cluster.items.length, groupColour?.(cluster.items))}
            title={groupLabel(cluster.items.length)}
            eventHandlers={{
              add: labelMarker(groupLabel(cluster.items.length)),
              ...onActivate(() => {
                const bounds = L.latLngBounds(cluster.items.map((item) => [item.lat, item.lon] as [number, number]));
                map.fitBounds(bounds, { padding: [40, 40], maxZoom: GROUP_ZOOM_MAX });
              }),
            }}
          />
        ),
      )}
    </>
  );
}

function FragmentKeyed({ children }: { children: ReactNode }) {
  return <>{children}</>;
}

/** Names a marker for assistive technologies and tests (Leaflet gives it the button role and focus). */
export function labelMarker(label: string) {
  return (event: L.LeafletEvent) => (event.target as L.Marker).getElement()?.setAttribute('aria-label', label);
}

/**
 * A marker's action on a click and, as for any button, on Enter or Space once it has the focus: Leaflet makes a marker
 * focusable but answers the keyboard only by opening a popup bound to it, which these markers do not have.
 */
export function onActivate(activate: () => void): L.LeafletEventHandlerFnMap {
  return {
    click: activate,
    keypress: (event) => {
      const key = (event as L.LeafletKeyboardEvent).originalEvent;
      if (key.key !== 'Enter' && key.key !== ' ') return;
      key.preventDefault();
      activate();
    },
  };
}
