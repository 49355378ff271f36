import { useEffect, useState, type ReactNode } from 'react';
import { AttributionControl, GeoJSON, MapContainer, Pane, TileLayer, useMap } from 'react-leaflet';
import type { FeatureCollection } from 'geojson';
import type { LatLngBoundsExpression, PathOptions } from 'leaflet';
import 'leaflet/dist/leaflet.css';
import './map.css';
import { cn } from '@/lib/cn';

/**
 * The base of every map (docs/decisions/025): Leaflet with the bundled outline of France and its departments under the
 * markers, so the map is readable without any tile server, and the raster tiles of MAP_TILE_URL under it when the
 * server has one. This module and everything it imports load only when a map opens (lazy chunk).
 */

export interface MapTiles {
  tileUrl: string | null;
  attribution: string | null;
}

/** Metropolitan France, the view before there is anything to show. */
export const FRANCE_BOUNDS: LatLngBoundsExpression = [
  [41.3, -5.2],
  [51.1, 9.6],
];

const OUTLINE_ATTRIBUTION = 'Contours : Natural Earth, INSEE / La Poste (Licence Ouverte)';

let outlineRequest: Promise<FeatureCollection> | undefined;
function loadOutline(): Promise<FeatureCollection> {
  outlineRequest ??= import('./outline/france-departements.json').then((m) => m.default as unknown as FeatureCollection);
  return outlineRequest;
}

function OutlineLayer({ overTiles }: { overTiles: boolean }) {
  const [outline, setOutline] = useState<FeatureCollection | null>(null);
  useEffect(() => {
    let active = true;
    loadOutline().then(
      (data) => active && setOutline(data),
      () => undefined,
    );
    return () => {
      active = false;
    };
  }, []);
  if (!outline) return null;
  const style: PathOptions = overTiles
    ? { color: '#475569', weight: 0.8, opacity: 0.45, fill: false }
    : { color: '#94a3b8', weight: 0.8, opacity: 1, fillColor: '#f8fafc', fillOpacity: 1 };
  return (
    <Pane name="outline" style={{ zIndex: 250 }}>
      <GeoJSON data={outline} style={() => style} interactive={false} attribution={OUTLINE_ATTRIBUTION} />
    </Pane>
  );
}

/** Fits the view to `bounds` whenever `fitKey` changes (new data), not on every render. */
export function FitBounds({ bounds, fitKey }: { bounds: LatLngBoundsExpression | null; fitKey: string }) {
  const map = useMap();
  useEffect(() => {
    if (bounds) map.fitBounds(bounds, { padding: [28, 28], maxZoom: 13 });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- refit on new data only
  }, [map, fitKey]);
  return null;
}

export function MapView({
  tiles,
  bounds,
  label,
  className,
  children,
}: {
  tiles: MapTiles | null | undefined;
  bounds?: LatLngBoundsExpression | null;
  /** What the map shows, for assistive technologies. */
  label: string;
  className?: string;
  children?: ReactNode;
}) {
  const tileUrl = tiles?.tileUrl ?? null;
  return (
    <div role="region" aria-label={label} className={cn('relative isolate overflow-hidden rounded-lg border', className)}>
      <MapContainer
        bounds={bounds ?? FRANCE_BOUNDS}
        boundsOptions={{ padding: [28, 28], maxZoom: 13 }}
        attributionControl={false}
        zoomSnap={0.5}
        className="h-full w-full"
        style={{ background: '#dbeafe' }}
      >
        <AttributionControl prefix='<a href="https://leafletjs.com" target="_blank" rel="noreferrer">Leaflet</a>' />
        {tileUrl ? <TileLayer url={tileUrl} attribution={tiles?.attribution ?? ''} maxZoom={19} /> : null}
        <OutlineLayer overTiles={Boolean(tileUrl)} />
        {children}
      </MapContainer>
    </div>
  );
}
