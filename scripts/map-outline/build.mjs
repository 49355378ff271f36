/**
 * Builds the bundled outline of France and its departments drawn under the map markers
 * (web/src/components/map/outline/france-departements.json), from two open sources:
 *  - the communes table the server already ships (server/data-files/communes-fr.csv: INSEE COG / La Poste, Licence
 *    Ouverte Etalab 2.0): every commune's reference point and department;
 *  - Natural Earth 1:10m admin-0 countries (public domain), as packaged by world-atlas: France's coast and borders.
 * Each metropolitan department is the union of the Voronoi cells of its communes' points (a commune is the area nearer
 * to its point than to any other commune's), cut along Natural Earth's France; each overseas department is its
 * Natural Earth island or territory. The shapes are then simplified with their shared borders kept shared
 * (topojson-simplify) and written with 3 decimals (about 100 m). Department borders are therefore approximate (to a few
 * km), which is what a background under markers needs. Run: cd scripts/map-outline && npm install && npm run build.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Delaunay } from 'd3-delaunay';
import polygonClipping from 'polygon-clipping';
import { feature } from 'topojson-client';
import { topology } from 'topojson-server';
import { presimplify, simplify, quantile } from 'topojson-simplify';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const output = path.join(root, 'web/src/components/map/outline/france-departements.json');

/** Keeps this share of the points (by Visvalingam weight). */
const KEEP = Number(process.env.OUTLINE_KEEP ?? 0.06);
const DECIMALS = 3;

const OVERSEAS = {
  971: { south: 15.8, west: -61.9, north: 16.6, east: -60.9 },
  972: { south: 14.3, west: -61.3, north: 14.95, east: -60.75 },
  973: { south: 2, west: -54.7, north: 6, east: -51.5 },
  974: { south: -21.5, west: 55.1, north: -20.8, east: 55.9 },
  976: { south: -13.1, west: 44.9, north: -12.5, east: 45.4 },
};
const METRO = { south: 41, west: -5.5, north: 51.5, east: 10 };

const within = (ring, box) => ring.every(([lon, lat]) => lat >= box.south && lat <= box.north && lon >= box.west && lon <= box.east);

// 1. France from Natural Earth.
const countries = JSON.parse(fs.readFileSync(path.join(here, 'node_modules/world-atlas/countries-10m.json'), 'utf8'));
const france = feature(countries, countries.objects.countries).features.find((f) => f.properties.name === 'France');
if (!france) throw new Error('France introuvable dans world-atlas');
const parts = france.geometry.type === 'MultiPolygon' ? france.geometry.coordinates : [france.geometry.coordinates];
const metroLand = parts.filter((p) => within(p[0], METRO));
const overseas = Object.fromEntries(Object.entries(OVERSEAS).map(([code, box]) => [code, parts.filter((p) => within(p[0], box))]));
for (const [code, polygons] of Object.entries(overseas)) if (polygons.length === 0) throw new Error(`${code} introuvable`);

// 2. Communes' points, metropolitan France.
const lines = fs.readFileSync(path.join(root, 'server/data-files/communes-fr.csv'), 'utf8').split('\n').slice(1);
const seen = new Map();
for (const line of lines) {
  const [, , , department, lat, lon] = line.split(',');
  if (!department || department.startsWith('97')) continue;
  const key = `${lat},${lon}`;
  if (!seen.has(key)) seen.set(key, { department, lat: Number(lat), lon: Number(lon) });
}
const points = [...seen.values()];
const scale = Math.cos((46.5 * Math.PI) / 180);
const delaunay = Delaunay.from(points, (p) => p.lon * scale, (p) => p.lat);
const voronoi = delaunay.voronoi([(METRO.west - 1) * scale, METRO.south - 1, (METRO.east + 1) * scale, METRO.north + 1]);

const cellsByDepartment = new Map();
for (let i = 0; i < points.length; i += 1) {
  const cell = voronoi.cellPolygon(i);
  if (!cell) continue;
  const ring = cell.map(([x, y]) => [x / scale, y]);
  const list = cellsByDepartment.get(points[i].department) ?? [];
  list.push([ring]);
  cellsByDepartment.set(points[i].department, list);
}

// 3. Each department: union of its cells, cut along the coast and borders.
const features = [];
for (const [code, cells] of [...cellsByDepartment.entries()].sort(([a], [b]) => a.localeCompare(b))) {
  let union = [];
  for (let i = 0; i < cells.length; i += 200) union = polygonClipping.union(union, ...cells.slice(i, i + 200));
  const land = polygonClipping.intersection(union, metroLand);
  // Specks left by the cut (a cell's tip across an estuary): under 1 km².
  const kept = land.filter((polygon) => Math.abs(ringArea(polygon[0])) > 1e-4);
  features.push({ type: 'Feature', properties: { code }, geometry: { type: 'MultiPolygon', coordinates: kept } });
  process.stdout.write(`${code} `);
}
for (const [code, polygons] of Object.entries(overseas)) {
  features.push({ type: 'Feature', properties: { code }, geometry: { type: 'MultiPolygon', coordinates: polygons } });
}
process.stdout.write('\n');

function ringArea(ring) {
  let area = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i, i += 1) area += (ring[j][0] - ring[i][0]) * (ring[j][1] + ring[i][1]);
  return area / 2;
}

// 4. Simplify with shared borders kept shared, then back to GeoJSON with 3 decimals.
const topo = presimplify(topology({ departements: { type: 'FeatureCollection', features } }, 1e6));
const simplified = simplify(topo, quantile(topo, 1 - KEEP));
const round = (value) => Math.round(value * 10 ** DECIMALS) / 10 ** DECIMALS;
const result = feature(simplified, simplified.objects.departements);
for (const f of result.features) {
  const polygons = f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates;
  const cleaned = polygons
    .map((polygon) =>
      polygon
        .map((ring) => ring.map(([lon, lat]) => [round(lon), round(lat)]).filter((p, i, all) => i === 0 || p[0] !== all[i - 1][0] || p[1] !== all[i - 1][1]))
        .filter((ring) => ring.length >= 4),
    )
    .filter((polygon) => polygon.length > 0);
  f.geometry = { type: 'MultiPolygon', coordinates: cleaned };
  delete f.id;
}
result.features = result.features.filter((f) => f.geometry.coordinates.length > 0);
fs.mkdirSync(path.dirname(output), { recursive: true });
fs.writeFileSync(output, JSON.stringify(result));
const bytes = fs.statSync(output).size;
console.log(`${result.features.length} départements, ${(bytes / 1024).toFixed(0)} Kio → ${path.relative(root, output)}`);
