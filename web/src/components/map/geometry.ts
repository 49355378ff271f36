/**
 * Plain computations behind the maps (no Leaflet here, so they are unit-tested): grid clustering of markers, the
 * point-in-polygon test of the lasso, and the colours of the admin's lots.
 */

export interface ScreenPoint {
  x: number;
  y: number;
}

export interface Cluster<T> {
  /** Stable key: the cell for a group, the item's id for a single marker. */
  key: string;
  items: T[];
  /** Mean position of the items (lat/lon). */
  lat: number;
  lon: number;
}

/**
 * Groups markers whose screen positions fall in the same square of `cellSize` pixels (a simple grid clustering: cheap,
 * predictable, enough for a few thousand markers). `project` gives each item's pixel position at the current zoom.
 */
export function gridClusters<T extends { id: string; lat: number; lon: number }>(
  items: readonly T[],
  project: (item: T) => ScreenPoint,
  cellSize: number,
): Cluster<T>[] {
  const cells = new Map<string, T[]>();
  for (const item of items) {
    const p = project(item);
    const key = `${Math.floor(p.x / cellSize)}:${Math.floor(p.y / cellSize)}`;
    const cell = cells.get(key);
    if (cell) cell.push(item);
    else cells.set(key, [item]);
  }
  const clusters: Cluster<T>[] = [];
  for (const [key, members] of cells) {
    const lat = members.reduce((sum, m) => sum + m.lat, 0) / members.length;
    const lon = members.reduce((sum, m) => sum + m.lon, 0) / members.length;
    clusters.push({ key: members.length === 1 ? members[0]!.id : `cell:${key}`, items: members, lat, lon });
  }
  return clusters;
}

/** Whether (x, y) lies inside the polygon (ray casting; the polygon is closed implicitly). */
export function pointInPolygon(point: ScreenPoint, polygon: readonly ScreenPoint[]): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i, i += 1) {
    const a = polygon[i]!;
    const b = polygon[j]!;
    if (a.y > point.y !== b.y > point.y && point.x < ((b.x - a.x) * (point.y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

/** Twelve colours that stay apart from each other and readable on the light outline (one per lot, in turn). */
export const LOT_COLOURS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#be185d', '#65a30d', '#4f46e5', '#b45309', '#0d9488', '#7c3aed'];

/** The colour of each lot, by its order in the legend. */
export function lotColours(lotIds: readonly string[]): Map<string, string> {
  return new Map(lotIds.map((id, i) => [id, LOT_COLOURS[i % LOT_COLOURS.length]!]));
}
