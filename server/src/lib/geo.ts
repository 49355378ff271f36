import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Offline geocoding (French communes table shipped in server/data-files), distances and round-trip planning
 * (decisions.md §4 "Distance and route sorting"). Commune precision only: good for sorting visits, not for
 * navigating to a door.
 */

export interface GeoPoint {
  lat: number;
  lon: number;
}

/** How precise a position is, best first. */
export type GeoPrecision = 'coordinates' | 'commune' | 'postal-code' | 'city' | 'department';

export interface GeocodeResult extends GeoPoint {
  precision: GeoPrecision;
  label: string;
}

export interface PlaceQuery {
  address?: string | null | undefined;
  postalCode?: string | null | undefined;
  city?: string | null | undefined;
  department?: string | null | undefined;
  latitude?: number | null | undefined;
  longitude?: number | null | undefined;
}

interface Commune extends GeoPoint {
  postalCode: string;
  name: string;
  normalizedName: string;
  department: string;
}

interface CommuneIndex {
  byPostalCode: Map<string, Commune[]>;
  byName: Map<string, Commune[]>;
  departmentCentres: Map<string, GeoPoint>;
}

const CSV_NAME = 'communes-fr.csv';
let index: CommuneIndex | null = null;

/** Finds server/data-files from src/lib (tests, tsx) and from the bundle in dist*. */
function communesFile(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i += 1) {
    for (const candidate of [path.join(dir, 'data-files', CSV_NAME), path.join(dir, 'server', 'data-files', CSV_NAME)]) {
      if (fs.existsSync(candidate)) return candidate;
    }
    dir = path.dirname(dir);
  }
  throw new Error(`Fichier ${CSV_NAME} introuvable`);
}

/**
 * Lower case, no accents, œ→oe, hyphens and apostrophes as spaces, st/ste as saint/sainte
 * (the lookup notes of the communes table).
 */
export function normalizeCommuneName(name: string): string {
  return name
    .toLowerCase()
    .replace(/œ/g, 'oe')
    .replace(/æ/g, 'ae')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[-'’‘`.,/]/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => (word === 'st' ? 'saint' : word === 'ste' ? 'sainte' : word))
    .join(' ');
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function loadIndex(): CommuneIndex {
  if (index) return index;
  const text = fs.readFileSync(communesFile(), 'utf8');
  const byPostalCode = new Map<string, Commune[]>();
  const byName = new Map<string, Commune[]>();
  const sums = new Map<string, { lat: number; lon: number; n: number }>();
  const lines = text.split('\n');
  for (let i = 1; i < lines.length; i += 1) {
    const line = lines[i];
    if (!line) continue;
    const [, postalCode, name, department, lat, lon] = line.split(',');
    if (!postalCode || !name || !department || !lat || !lon) continue;
    const commune: Commune = { postalCode, name, normalizedName: normalizeCommuneName(name), department, lat: Number(lat), lon: Number(lon) };
    push(byPostalCode, postalCode, commune);
    push(byName, commune.normalizedName, commune);
    const sum = sums.get(department) ?? { lat: 0, lon: 0, n: 0 };
    sum.lat += commune.lat;
    sum.lon += commune.lon;
    sum.n += 1;
    sums.set(department, sum);
  }
  const departmentCentres = new Map<string, GeoPoint>();
  for (const [department, sum] of sums) departmentCentres.set(department, { lat: sum.lat / sum.n, lon: sum.lon / sum.n });
  index = { byPostalCode, byName, departmentCentres };
  return index;
}

/**
 * Builds the communes' index now rather than on the first geocoding (a mission or a profile written). Building it reads
 * and normalises about 39 000 communes, 80–100 ms of one core, during which the instance answers no request: the
 * server does it before it listens (main.ts).
 */
export function loadGeocoder(): void {
  loadIndex();
}

/** Department of a postal code: 2 digits, 3 overseas, Corsica split into 2A / 2B. */
export function departmentFromPostalCode(postalCode: string): string | null {
  if (!/^\d{5}$/.test(postalCode)) return null;
  if (postalCode.startsWith('97')) return postalCode.slice(0, 3);
  if (postalCode.startsWith('20')) return Number(postalCode) < 20200 ? '2A' : '2B';
  return postalCode.slice(0, 2);
}

/** Pulls "75011" and "Paris" out of a free address line such as "12 rue X, 75011 Paris". */
export function parseAddress(text: string): { postalCode?: string; city?: string } {
  const matches = [...text.matchAll(/(?:^|\D)(\d{5})(?!\d)/g)];
  const last = matches.at(-1);
  if (!last) {
    const parts = text.split(',').map((p) => p.trim()).filter(Boolean);
    return parts.length > 1 ? { city: parts.at(-1)! } : {};
  }
  const postalCode = last[1]!;
  const after = text.slice((last.index ?? 0) + last[0].length).split(',')[0]?.trim() ?? '';
  const city = after.replace(/\bcedex\b.*$/i, '').replace(/\bfrance\b/i, '').trim();
  if (city) return { postalCode, city };
  // "Paris 75011": the city comes before the code.
  const before = text.slice(0, last.index).split(',').at(-1)?.trim() ?? '';
  const beforeCity = before.replace(/^\d+\s*(bis|ter)?\s+/i, '').trim();
  return beforeCity && !/\d/.test(beforeCity) ? { postalCode, city: beforeCity } : { postalCode };
}

function nameMatches(commune: Commune, wanted: string): boolean {
  return commune.normalizedName === wanted || commune.normalizedName.startsWith(`${wanted} `);
}

function isValidPoint(lat: unknown, lon: unknown): lat is number {
  return typeof lat === 'number' && typeof lon === 'number' && Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180;
}

/**
 * Position of a place: its own coordinates when known, else postal code + city, postal code alone, city alone,
 * then the department's centre. Null when nothing usable was given.
 */
export function geocode(place: PlaceQuery): GeocodeResult | null {
  if (isValidPoint(place.latitude, place.longitude)) {
    return { lat: place.latitude, lon: place.longitude as number, precision: 'coordinates', label: 'coordonnées' };
  }
  const parsed = place.address ? parseAddress(place.address) : {};
  const postalCode = place.postalCode?.trim() || parsed.postalCode;
  const city = place.city?.trim() || parsed.city;
  const { byPostalCode, byName, departmentCentres } = loadIndex();
  const wanted = city ? normalizeCommuneName(city) : '';
  if (postalCode) {
    const rows = byPostalCode.get(postalCode) ?? [];
    const named = wanted ? rows.find((c) => c.normalizedName === wanted) ?? rows.find((c) => nameMatches(c, wanted)) : undefined;
    if (named) return { lat: named.lat, lon: named.lon, precision: 'commune', label: `${named.postalCode} ${named.name}` };
    if (rows[0]) return { lat: rows[0].lat, lon: rows[0].lon, precision: 'postal-code', label: `${rows[0].postalCode} ${rows[0].name}` };
  }
  const department = place.department?.trim() || (postalCode ? departmentFromPostalCode(postalCode) : null);
  if (wanted) {
    const candidates = byName.get(wanted) ?? [];
    const match = (department ? candidates.find((c) => c.department === department) : undefined) ?? (department ? undefined : candidates[0]);
    if (match) return { lat: match.lat, lon: match.lon, precision: 'city', label: `${match.postalCode} ${match.name}` };
  }
  const centre = department ? departmentCentres.get(department.toUpperCase()) : undefined;
  if (centre && department) return { ...centre, precision: 'department', label: `département ${department.toUpperCase()}` };
  return null;
}

export const EARTH_RADIUS_M = 6_371_008.8;
/** Roads are longer than the crow flies, and a technician drives about 70 km/h on average (decisions.md §4). */
export const ROAD_FACTOR = 1.3;
export const AVERAGE_SPEED_KMH = 70;

export function haversineMetres(a: GeoPoint, b: GeoPoint): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

export interface Leg {
  /** metres */
  distance: number;
  /** seconds */
  duration: number;
}

export function estimateLeg(a: GeoPoint, b: GeoPoint): Leg {
  const distance = Math.round(haversineMetres(a, b) * ROAD_FACTOR);
  return { distance, duration: Math.round(distance / ((AVERAGE_SPEED_KMH * 1000) / 3600)) };
}

export type DistanceSource = 'osrm' | 'estimate';

export interface Matrix {
  distances: number[][];
  durations: number[][];
  source: DistanceSource;
}

const OSRM_TIMEOUT_MS = 4000;

async function osrmTable(osrmUrl: string, points: GeoPoint[]): Promise<Matrix | null> {
  const coordinates = points.map((p) => `${p.lon.toFixed(6)},${p.lat.toFixed(6)}`).join(';');
  const url = `${osrmUrl.replace(/\/+$/, '')}/table/v1/driving/${coordinates}?annotations=distance,duration`;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(OSRM_TIMEOUT_MS) });
    if (!response.ok) return null;
    const body = (await response.json()) as { code?: string; distances?: (number | null)[][]; durations?: (number | null)[][] };
    if (body.code !== 'Ok' || !body.distances || !body.durations) return null;
    const complete = (m: (number | null)[][]) => m.length === points.length && m.every((row) => row.length === points.length && row.every((v) => typeof v === 'number'));
    if (!complete(body.distances) || !complete(body.durations)) return null;
    return { distances: body.distances as number[][], durations: body.durations as number[][], source: 'osrm' };
  } catch {
    return null;
  }
}

export function estimateMatrix(points: GeoPoint[]): Matrix {
  const legs = points.map((a) => points.map((b) => estimateLeg(a, b)));
  return { distances: legs.map((row) => row.map((l) => l.distance)), durations: legs.map((row) => row.map((l) => l.duration)), source: 'estimate' };
}

/** Road distances and durations between every pair: OSRM when configured and reachable, else the estimate. */
export async function travelMatrix(points: GeoPoint[], osrmUrl?: string | undefined): Promise<Matrix> {
  if (osrmUrl && points.length > 1 && points.length <= 100) {
    const table = await osrmTable(osrmUrl, points);
    if (table) return table;
  }
  return estimateMatrix(points);
}

export async function travelLeg(a: GeoPoint, b: GeoPoint, osrmUrl?: string | undefined): Promise<Leg & { source: DistanceSource }> {
  const matrix = await travelMatrix([a, b], osrmUrl);
  return { distance: Math.round(matrix.distances[0]![1]!), duration: Math.round(matrix.durations[0]![1]!), source: matrix.source };
}

/** Length of the round trip 0 → order… → 0 on a distance matrix (index 0 is home). */
export function tourLength(matrix: number[][], order: readonly number[]): number {
  let total = 0;
  let previous = 0;
  for (const stop of order) {
    total += matrix[previous]![stop]!;
    previous = stop;
  }
  return total + (order.length > 0 ? matrix[previous]![0]! : 0);
}

function nearestNeighbour(d: number[][], stops: readonly number[]): number[] {
  const left = new Set(stops);
  const order: number[] = [];
  let current = 0;
  while (left.size > 0) {
    let best = -1;
    for (const candidate of left) if (best === -1 || d[current]![candidate]! < d[current]![best]!) best = candidate;
    order.push(best);
    left.delete(best);
    current = best;
  }
  return order;
}

const EPSILON = 1e-9;

/** 2-opt (reverse a segment) then Or-opt (move a run of 1–3 stops) until no move shortens the tour. */
function improve(d: number[][], initial: readonly number[]): number[] {
  const tour = [0, ...initial];
  const n = tour.length;
  const at = (i: number) => tour[i % n]!;
  for (let pass = 0; pass < 50; pass += 1) {
    let improved = false;
    for (let i = 0; i < n - 1; i += 1) {
      for (let j = i + 2; j < n; j += 1) {
        const a = at(i);
        const b = at(i + 1);
        const c = at(j);
        const e = at(j + 1);
        if (a === e) continue;
        const delta = d[a]![c]! + d[b]![e]! - d[a]![b]! - d[c]![e]!;
        if (delta < -EPSILON) {
          for (let l = i + 1, r = j; l < r; l += 1, r -= 1) [tour[l], tour[r]] = [tour[r]!, tour[l]!];
          improved = true;
        }
      }
    }
    for (let length = 1; length <= 3 && length < n - 1; length += 1) {
      for (let start = 1; start + length <= n; start += 1) {
        const prev = tour[start - 1]!;
        const first = tour[start]!;
        const last = tour[start + length - 1]!;
        const next = at(start + length);
        const removeGain = d[prev]![first]! + d[last]![next]! - d[prev]![next]!;
        const rest = [...tour.slice(0, start), ...tour.slice(start + length)];
        const segment = tour.slice(start, start + length);
        let bestDelta = -EPSILON;
        let bestPosition = -1;
        let bestReversed = false;
        for (let k = 0; k < rest.length; k += 1) {
          const p = rest[k]!;
          const q = rest[(k + 1) % rest.length]!;
          const forward = d[p]![first]! + d[last]![q]! - d[p]![q]! - removeGain;
          const backward = d[p]![last]! + d[first]![q]! - d[p]![q]! - removeGain;
          if (forward < bestDelta) [bestDelta, bestPosition, bestReversed] = [forward, k, false];
          if (backward < bestDelta) [bestDelta, bestPosition, bestReversed] = [backward, k, true];
        }
        if (bestPosition >= 0) {
          const moved = bestReversed ? [...segment].reverse() : segment;
          const next = [...rest.slice(0, bestPosition + 1), ...moved, ...rest.slice(bestPosition + 1)];
          tour.splice(0, n, ...next);
          improved = true;
        }
      }
    }
    if (!improved) break;
  }
  // Rotate so the tour starts from home again.
  const home = tour.indexOf(0);
  return [...tour.slice(home + 1), ...tour.slice(0, home)];
}

/**
 * A good round trip from home (index 0) through the stops of `current` (indexes into the matrix):
 * nearest neighbour then 2-opt / Or-opt, also trying the current order and both directions. Never longer than the
 * current order. The search uses the symmetric mean of the matrix (road tables are slightly asymmetric); the
 * result is judged on the real matrix.
 */
export function planRoundTrip(matrix: number[][], current: readonly number[]): number[] {
  if (current.length <= 1) return [...current];
  const symmetric = matrix.map((row, i) => row.map((value, j) => (value + matrix[j]![i]!) / 2));
  const candidates = [improve(symmetric, nearestNeighbour(symmetric, current)), improve(symmetric, current)];
  let best = [...current];
  let bestLength = tourLength(matrix, best);
  for (const candidate of candidates) {
    for (const order of [candidate, [...candidate].reverse()]) {
      const length = tourLength(matrix, order);
      if (length < bestLength - EPSILON) [best, bestLength] = [order, length];
    }
  }
  return best;
}

/** Beyond this many sites, the listing keeps the nearest-neighbour tour (2-opt is quadratic per pass). */
const TWO_OPT_MAX_STOPS = 150;

/**
 * Estimated round trip from `home` through every site and back, as the lot lists show it: the engine of « Trier pour
 * économiser ma route » (nearest neighbour then 2-opt; the sort itself adds Or-opt and compares orders) on the
 * great-circle × 1.3 estimate at 70 km/h. Metres and seconds; null without a site.
 */
export function estimateRoundTrip(home: GeoPoint, sites: readonly GeoPoint[]): Leg | null {
  return lotTripFromHome(home, sites.map((p) => p.lat), sites.map((p) => p.lon))?.roundTrip ?? null;
}

/** lotTripFromHome's working arrays for up to `size` points (home and the distinct sites). */
function scratchFor(size: number) {
  return {
    size,
    lats: new Float64Array(size),
    lons: new Float64Array(size),
    cosLat: new Float64Array(size),
    d: new Float64Array(size * size),
    tour: new Int32Array(size),
    visited: new Uint8Array(size),
  };
}
/** Points of the arrays every call reuses (it never yields); a lot with more sites has its own for its call. */
const SCRATCH_POINTS = 64;
const scratch = scratchFor(SCRATCH_POINTS);

/**
 * What a lot list shows of a lot's sites from home, in one pass: the distance to the nearest site (haversineMetres,
 * rounded) and the estimated round trip (estimateRoundTrip: nearest neighbour then 2-opt below TWO_OPT_MAX_STOPS, then
 * × ROAD_FACTOR at AVERAGE_SPEED_KMH), from one symmetric distance matrix in a flat array, the cosines computed once per
 * point: a page of lots computes twenty of these per request. Sites as the parallel arrays a lot keeps (duplicates
 * counted once); null without a site. Its arrays are reused from call to call rather than allocated.
 */
export function lotTripFromHome(home: GeoPoint, lats: readonly number[], lons: readonly number[]): { nearest: number; roundTrip: Leg } | null {
  const rad = Math.PI / 180;
  const { lats: pointLats, lons: pointLons, cosLat, d, tour, visited } = lats.length < SCRATCH_POINTS ? scratch : scratchFor(lats.length + 1);
  pointLats[0] = home.lat;
  pointLons[0] = home.lon;
  let n = 1;
  for (let i = 0; i < lats.length; i += 1) {
    const lat = lats[i]!;
    const lon = lons[i]!;
    let seen = false;
    for (let j = 1; j < n && !seen; j += 1) seen = pointLats[j] === lat && pointLons[j] === lon;
    if (!seen) {
      pointLats[n] = lat;
      pointLons[n] = lon;
      n += 1;
    }
  }
  if (n === 1) return null;
  for (let i = 0; i < n; i += 1) cosLat[i] = Math.cos(pointLats[i]! * rad);
  for (let i = 0; i < n; i += 1) {
    for (let j = i + 1; j < n; j += 1) {
      // haversineMetres(point i, point j), which is symmetric to the last bit.
      const dLat = (pointLats[j]! - pointLats[i]!) * rad;
      const dLon = (pointLons[j]! - pointLons[i]!) * rad;
      const h = Math.sin(dLat / 2) ** 2 + cosLat[i]! * cosLat[j]! * Math.sin(dLon / 2) ** 2;
      d[i * n + j] = d[j * n + i] = 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
    }
  }
  let nearest = Infinity;
  for (let j = 1; j < n; j += 1) nearest = Math.min(nearest, d[j]!);
  tour[0] = 0;
  visited.fill(0, 0, n);
  // Nearest neighbour from home, then 2-opt (reverse a segment) until no move shortens the tour.
  for (let k = 1, current = 0; k < n; k += 1) {
    let best = -1;
    for (let candidate = 1; candidate < n; candidate += 1) {
      if (!visited[candidate] && (best === -1 || d[current * n + candidate]! < d[current * n + best]!)) best = candidate;
    }
    visited[best] = 1;
    tour[k] = best;
    current = best;
  }
  if (n - 1 <= TWO_OPT_MAX_STOPS) {
    for (let pass = 0; pass < 20; pass += 1) {
      let improved = false;
      for (let i = 0; i < n - 1; i += 1) {
        for (let j = i + 2; j < n; j += 1) {
          const a = tour[i]!;
          const b = tour[i + 1]!;
          const c = tour[j]!;
          const e = tour[(j + 1) % n]!;
          if (a === e) continue;
          if (d[a * n + c]! + d[b * n + e]! - d[a * n + b]! - d[c * n + e]! < -EPSILON) {
            for (let l = i + 1, r = j; l < r; l += 1, r -= 1) {
              const stop = tour[l]!;
              tour[l] = tour[r]!;
              tour[r] = stop;
            }
            improved = true;
          }
        }
      }
      if (!improved) break;
    }
  }
  // tourLength: from home through the stops in order, and back.
  let length = 0;
  for (let k = 1; k < n; k += 1) length += d[tour[k - 1]! * n + tour[k]!]!;
  length += d[tour[n - 1]! * n]!;
  const distance = Math.round(length * ROAD_FACTOR);
  return { nearest: Math.round(nearest), roundTrip: { distance, duration: Math.round(distance / ((AVERAGE_SPEED_KMH * 1000) / 3600)) } };
}

/** Great-circle distance from `home` to the nearest of `sites`, metres; null without a site. */
export function nearestDistance(home: GeoPoint, sites: readonly GeoPoint[]): number | null {
  return lotTripFromHome(home, sites.map((p) => p.lat), sites.map((p) => p.lon))?.nearest ?? null;
}

