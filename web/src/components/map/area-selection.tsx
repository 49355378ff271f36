import { useEffect, useRef } from 'react';
import { useMap } from 'react-leaflet';
import L from 'leaflet';
import { pointInPolygon, type ScreenPoint } from './geometry';

export type SelectionMode = 'rectangle' | 'lasso';

/**
 * Draws a rectangle or a free-hand lasso on the map with the mouse, a finger or a pen (pointer events), then gives the
 * ids of the items inside it. While a mode is on, the map does not pan under the pointer. Escape cancels a drawing.
 */
export function AreaSelection<T extends { id: string; lat: number; lon: number }>({
  mode,
  items,
  onSelect,
}: {
  mode: SelectionMode | null;
  items: readonly T[];
  onSelect: (ids: string[]) => void;
}) {
  const map = useMap();
  const itemsRef = useRef(items);
  const onSelectRef = useRef(onSelect);
  itemsRef.current = items;
  onSelectRef.current = onSelect;

  useEffect(() => {
    if (!mode) return;
    const container = map.getContainer();
    map.dragging.disable();
    map.boxZoom.disable();
    container.style.cursor = 'crosshair';
    container.style.touchAction = 'none';
    let start: ScreenPoint | null = null;
    let path: ScreenPoint[] = [];
    let shape: L.Rectangle | L.Polygon | null = null;
    const style = { color: '#111827', weight: 2, dashArray: '6 4', fillColor: '#2563eb', fillOpacity: 0.12, interactive: false };

    const pointOf = (event: PointerEvent): ScreenPoint => {
      const rect = container.getBoundingClientRect();
      return { x: event.clientX - rect.left, y: event.clientY - rect.top };
    };
    const latLng = (p: ScreenPoint) => map.containerPointToLatLng([p.x, p.y]);
    const clear = () => {
      shape?.remove();
      shape = null;
      start = null;
      path = [];
    };
    const down = (event: PointerEvent) => {
      if (event.button !== 0) return;
      // Controls (zoom, attribution) keep working.
      if ((event.target as HTMLElement).closest('.leaflet-control')) return;
      event.preventDefault();
      container.setPointerCapture(event.pointerId);
      start = pointOf(event);
      path = [start];
    };
    const move = (event: PointerEvent) => {
      if (!start) return;
      const point = pointOf(event);
      if (mode === 'rectangle') {
        const bounds = L.latLngBounds(latLng(start), latLng(point));
        if (shape) (shape as L.Rectangle).setBounds(bounds);
        else shape = L.rectangle(bounds, style).addTo(map);
      } else {
        const last = path[path.length - 1]!;
        if (Math.hypot(point.x - last.x, point.y - last.y) < 4) return;
        path.push(point);
        const ring = path.map(latLng);
        if (shape) (shape as L.Polygon).setLatLngs(ring);
        else shape = L.polygon(ring, style).addTo(map);
      }
    };
    const up = (event: PointerEvent) => {
      if (!start) return;
      const end = pointOf(event);
      const from = start;
      const lasso = [...path, end];
      clear();
      const inside = (item: T) => {
        const p = map.latLngToContainerPoint([item.lat, item.lon]);
        if (mode === 'rectangle') {
          return p.x >= Math.min(from.x, end.x) && p.x <= Math.max(from.x, end.x) && p.y >= Math.min(from.y, end.y) && p.y <= Math.max(from.y, end.y);
        }
        return lasso.length >= 3 && pointInPolygon(p, lasso);
      };
      // A click without drawing selects nothing.
      if (Math.hypot(end.x - from.x, end.y - from.y) < 4) return;
      onSelectRef.current(itemsRef.current.filter(inside).map((item) => item.id));
    };
    const key = (event: KeyboardEvent) => {
      if (event.key === 'Escape') clear();
    };
    container.addEventListener('pointerdown', down);
    container.addEventListener('pointermove', move);
    container.addEventListener('pointerup', up);
    container.addEventListener('pointercancel', clear);
    window.addEventListener('keydown', key);
    return () => {
      clear();
      container.removeEventListener('pointerdown', down);
      container.removeEventListener('pointermove', move);
      container.removeEventListener('pointerup', up);
      container.removeEventListener('pointercancel', clear);
      window.removeEventListener('keydown', key);
      container.style.cursor = '';
      container.style.touchAction = '';
      map.dragging.enable();
      map.boxZoom.enable();
    };
  }, [map, mode]);
  return null;
}
