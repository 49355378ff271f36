import { Marker, Polyline, Popup } from 'react-leaflet';
import type { LatLngBoundsExpression, LatLngExpression } from 'leaflet';
import { formatDuration, formatKilometres } from '@maillon/common/format';
import { labelMarker } from '@/components/map/cluster-layer';
import { homeIcon, numberedIcon } from '@/components/map/icons';
import { LegendSwatch, MapLegend } from '@/components/map/map-legend';
import { FitBounds, MapView } from '@/components/map/map-view';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { usePublicConfig } from '@/features/auth/api/get-public-config-query';
import { useRouteMap } from '../api/work-get-route-map';

const ROUTE_COLOUR = '#1d4ed8';

/**
 * The Recruté view's map: home, the devices numbered like the list (the order of « Trier pour économiser ma route »),
 * the round trip through the undone ones drawn from home and back, done devices greyed, approximate positions hollow.
 */
export function WorkRouteMap({ technicianId, applicationId }: { technicianId: string; applicationId: string }) {
  const map = useRouteMap(technicianId, applicationId);
  const config = usePublicConfig();
  if (map.isPending) return <Skeleton className="h-[55vh] min-h-72" />;
  if (map.isError) return <ErrorState error={map.error} />;
  const { home, stops, route, unlocated, sorted } = map.data;
  const byId = new Map(stops.map((stop) => [stop.missionId, stop]));
  const path: LatLngExpression[] = home && route ? [[home.lat, home.lon], ...route.order.map((id) => [byId.get(id)!.lat, byId.get(id)!.lon] as [number, number]), [home.lat, home.lon]] : [];
  const points: [number, number][] = [...stops.map((s) => [s.lat, s.lon] as [number, number]), ...(home ? [[home.lat, home.lon] as [number, number]] : [])];
  const bounds: LatLngBoundsExpression | null = points.length > 0 ? points : null;
  const done = stops.filter((s) => s.isCompleted).length;

  return (
    <section aria-label="Carte de la tournée" className="grid gap-3">
      {route ? (
        <p className="text-sm font-medium" aria-live="polite">
          Tournée : {formatKilometres(route.distance)} · environ {formatDuration(route.duration)} de route
          {route.source === 'estimate' ? ' (estimation)' : ''} pour {route.order.length} défibrillateur{route.order.length > 1 ? 's' : ''} à faire
        </p>
      ) : !home ? (
        <p className="text-sm text-muted-foreground">Ajoutez votre adresse dans Mon compte pour voir la tournée depuis chez vous.</p>
      ) : (
        <p className="text-sm text-muted-foreground">Tous les défibrillateurs localisés sont effectués.</p>
      )}
      {!sorted && route && route.order.length > 1 ? (
        <p className="text-xs text-muted-foreground">Ordre de la liste : « Trier pour économiser ma route » le raccourcit.</p>
      ) : null}
      <MapView tiles={config.data?.map} bounds={bounds} label="Carte des défibrillateurs du lot" className="h-[55vh] min-h-72">
        <FitBounds bounds={bounds} fitKey={String(points.length)} />
        {path.length > 0 ? <Polyline positions={path} pathOptions={{ color: ROUTE_COLOUR, weight: 4, opacity: 0.75 }} /> : null}
        {home ? <Marker position={[home.lat, home.lon]} icon={homeIcon()} title="Votre adresse" zIndexOffset={-100} eventHandlers={{ add: labelMarker('Votre adresse') }} /> : null}
        {stops.map((stop) => {
          // Named by its site, as the compact list names it (the model is in the popup).
          const label = `${stop.number}. ${stop.title}${stop.isCompleted ? ' (effectué)' : ''}${stop.approximate ? ' (position approximative)' : ''}`;
          return (
            <Marker
              key={stop.missionId}
              position={[stop.lat, stop.lon]}
              icon={numberedIcon(stop.number, { approximate: stop.approximate, done: stop.isCompleted })}
              zIndexOffset={stop.isCompleted ? -50 : 100}
              title={label}
              eventHandlers={{ add: labelMarker(label) }}
            >
              <Popup>
                <p className="font-semibold">
                  {stop.number}. {stop.title}
                </p>
                <p>{stop.defibrillatorModel || 'Modèle non spécifié'}</p>
                <p className="text-muted-foreground">
                  {stop.isCompleted ? 'Effectué' : 'À faire'}
                  {stop.approximate ? ' · position approximative (code postal)' : ''}
                </p>
              </Popup>
            </Marker>
          );
        })}
      </MapView>
      <MapLegend
        items={[
          { key: 'todo', swatch: <LegendSwatch colour={ROUTE_COLOUR} />, label: 'À faire, dans l’ordre de la tournée' },
          ...(done > 0 ? [{ key: 'done', swatch: <LegendSwatch muted />, label: 'Effectué' }] : []),
          { key: 'approx', swatch: <LegendSwatch colour={ROUTE_COLOUR} hollow />, label: 'Position approximative (code postal)' },
          ...(home ? [{ key: 'home', swatch: <LegendSwatch colour="#111827" square />, label: 'Votre adresse' }] : []),
        ]}
      />
      {unlocated > 0 ? (
        <p className="text-sm text-muted-foreground">
          {unlocated} défibrillateur{unlocated > 1 ? 's' : ''} sans position : voir la liste.
        </p>
      ) : null}
    </section>
  );
}
