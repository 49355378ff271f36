import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { availableLotSchema, availableLotsMapSchema } from '@maillon/common/schemas/lots';
import { missionBatches, missions, technicians } from '../../db/schema';
import { backfillPositions, refreshLotsGeometry } from '../../lib/positions';
import { FIRST_SITES_MIN, findAvailableLots } from './mission-batches.service';
import { as, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';

/**
 * "Trouver des missions" near the technician (issue 18): distances, round trips, nearest-first order, radius filter,
 * the lots' map and the geometry kept with every move of a mission (docs/decisions/025).
 */

let ctx: TestContext;
let lyon: Awaited<ReturnType<typeof createTechnician>>;
let paris: Awaited<ReturnType<typeof createTechnician>>;
let nowhere: Awaited<ReturnType<typeof createTechnician>>;
let cookieLyon: string;
let cookieParis: string;
let cookieNowhere: string;
let cookieAdmin: string;

const url = '/api/mission-batches/available-for-application';
type Lot = ReturnType<typeof availableLotSchema.parse>;

/** Lyon 1er arrondissement and Paris 1er as the communes table places them (INSEE 69381, 75101). */
const LYON_1 = { lat: 45.77006, lon: 4.82852 };
const PARIS_1 = { lat: 48.86255, lon: 2.33642 };

/** Geodesic distance on the WGS84 ellipsoid (Vincenty's inverse formula): an independent reference for the haversine. */
function vincentyMetres(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const f = 1 / 298.257223563;
  const axis = 6378137;
  const minor = (1 - f) * axis;
  const rad = Math.PI / 180;
  const L = (b.lon - a.lon) * rad;
  const U1 = Math.atan((1 - f) * Math.tan(a.lat * rad));
  const U2 = Math.atan((1 - f) * Math.tan(b.lat * rad));
  const [sinU1, cosU1, sinU2, cosU2] = [Math.sin(U1), Math.cos(U1), Math.sin(U2), Math.cos(U2)];
  let lambda = L;
  let sinSigma = 0;
  let cosSigma = 0;
  let sigma = 0;
  let cosSqAlpha = 0;
  let cos2SigmaM = 0;
  for (let i = 0; i < 200; i += 1) {
    const sinLambda = Math.sin(lambda);
    const cosLambda = Math.cos(lambda);
    sinSigma = Math.sqrt((cosU2 * sinLambda) ** 2 + (cosU1 * sinU2 - sinU1 * cosU2 * cosLambda) ** 2);
    cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda;
    sigma = Math.atan2(sinSigma, cosSigma);
    const sinAlpha = (cosU1 * cosU2 * sinLambda) / sinSigma;
    cosSqAlpha = 1 - sinAlpha ** 2;
    cos2SigmaM = cosSigma - (2 * sinU1 * sinU2) / cosSqAlpha;
    const C = (f / 16) * cosSqAlpha * (4 + f * (4 - 3 * cosSqAlpha));
    const previous = lambda;
    lambda = L + (1 - C) * f * sinAlpha * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM ** 2)));
    if (Math.abs(lambda - previous) < 1e-12) break;
  }
  const uSq = (cosSqAlpha * (axis ** 2 - minor ** 2)) / minor ** 2;
  const A = 1 + (uSq / 16384) * (4096 + uSq * (-768 + uSq * (320 - 175 * uSq)));
  const B = (uSq / 1024) * (256 + uSq * (-128 + uSq * (74 - 47 * uSq)));
  const deltaSigma =
    B * sinSigma * (cos2SigmaM + (B / 4) * (cosSigma * (-1 + 2 * cos2SigmaM ** 2) - (B / 6) * cos2SigmaM * (-3 + 4 * sinSigma ** 2) * (-3 + 4 * cos2SigmaM ** 2)));
  return minor * A * (sigma - deltaSigma);
}

/** Great circle on the sphere the server uses: the order the server must give. */
function haversineKm(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const h = Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lon - a.lon) * rad) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h));
}

/** The point `km` away from `from` towards `bearing` degrees (on a sphere: good enough to place test sites). */
function destination(from: { lat: number; lon: number }, km: number, bearing: number) {
  const rad = Math.PI / 180;
  const d = km / 6371.0088;
  const lat1 = from.lat * rad;
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(bearing * rad));
  const lon2 = from.lon * rad + Math.atan2(Math.sin(bearing * rad) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
  return { lat: lat2 / rad, lon: lon2 / rad };
}

async function createLot(title: string, sites: ({ lat: number; lon: number } | { postalCode: string; city: string } | null)[], extra: Partial<typeof missionBatches.$inferInsert> = {}) {
  const [lot] = await ctx.db
    .insert(missionBatches)
    .values({ title, priceCents: 50_000, departments: ['69'], tags: ['Géo'], visibility: 'visible', ...extra })
    .returning({ id: missionBatches.id });
  const values = sites.map((site, i) => ({
    title: `${title} — site ${i + 1}`,
    batchId: lot!.id,
    status: 'active',
    ...(site && 'lat' in site ? { latitude: site.lat, longitude: site.lon } : {}),
    ...(site && 'postalCode' in site ? { postalCode: site.postalCode, city: site.city } : {}),
  }));
  if (values.length > 0) await ctx.db.insert(missions).values(values);
  // Rows written behind the API: the start-time backfill places them, the lot's geometry is computed as a move would.
  await backfillPositions(ctx.db);
  await refreshLotsGeometry(ctx.db, [lot!.id]);
  return lot!.id;
}

async function list(cookie: string, query: string) {
  const response = await as(ctx.app, cookie)({ method: 'GET', url: `${url}?${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return { lots: availableLotSchema.array().parse(response.json()), total: Number(response.headers['x-total-count']) };
}

async function saveAddress(cookie: string, technicianId: string, address: { address: string; postalCode: string; city: string }) {
  const response = await as(ctx.app, cookie)({ method: 'PATCH', url: `/api/technicians/${technicianId}`, payload: address });
  expect(response.statusCode, response.body).toBe(200);
}

beforeAll(async () => {
  ctx = await createTestContext({ READ_CACHE: true });
  lyon = await createTechnician(ctx.db);
  paris = await createTechnician(ctx.db);
  nowhere = await createTechnician(ctx.db);
  const admin = await createAdmin(ctx.db);
  [cookieLyon, cookieParis, cookieNowhere, cookieAdmin] = await Promise.all([
    login(ctx.app, lyon.technician.email),
    login(ctx.app, paris.technician.email),
    login(ctx.app, nowhere.technician.email),
    login(ctx.app, admin.email),
  ]);
  await saveAddress(cookieLyon, lyon.technician.id, { address: '1 place de la Comédie', postalCode: '69001', city: 'Lyon' });
  await saveAddress(cookieParis, paris.technician.id, { address: '1 rue de Rivoli', postalCode: '75001', city: 'Paris' });
});
afterAll(async () => {
  await ctx.close();
});

describe('technician home', () => {
  it('is located offline when the address is saved, and forgotten with an address that cannot be located', async () => {
    const [row] = await ctx.db.select().from(technicians).where(eq(technicians.id, lyon.technician.id));
    expect(row).toMatchObject({ latitude: LYON_1.lat, longitude: LYON_1.lon });
    const other = await createTechnician(ctx.db);
    const cookie = await login(ctx.app, other.technician.email);
    await saveAddress(cookie, other.technician.id, { address: '3 rue du Nulle-Part', postalCode: '00000', city: 'Atlantide' });
    const [unknown] = await ctx.db.select().from(technicians).where(eq(technicians.id, other.technician.id));
    expect(unknown).toMatchObject({ latitude: null, longitude: null, postalCode: '00000' });
  });

  it('is backfilled at start for technicians saved before (and missions get their approximate position)', async () => {
    const legacy = await createTechnician(ctx.db, { address: '5 quai Perrache', postalCode: '69002', city: 'Lyon' });
    const [lot0] = await ctx.db.insert(missionBatches).values({ title: 'Backfill', visibility: 'visible' }).returning({ id: missionBatches.id });
    const lotId = lot0!.id;
    await ctx.db.insert(missions).values({ title: 'Ancienne', batchId: lotId, postalCode: '69100', city: 'Villeurbanne', status: 'active' });
    await backfillPositions(ctx.db);
    const [row] = await ctx.db.select().from(technicians).where(eq(technicians.id, legacy.technician.id));
    expect(row).toMatchObject({ latitude: 45.74833, longitude: 4.82568 });
    const [mission] = await ctx.db.select().from(missions).where(eq(missions.batchId, lotId));
    expect(mission).toMatchObject({ latitude: null, approxLatitude: 45.771, approxLongitude: 4.88907 });
    const [lot] = await ctx.db.select().from(missionBatches).where(eq(missionBatches.id, lotId));
    expect(lot).toMatchObject({ geoSiteCount: 1, geoApproximateCount: 1, geoLat: 45.771, geoLon: 4.88907 });
    expect(await backfillPositions(ctx.db)).toMatchObject({ technicians: 0, missions: 0 });
    await ctx.db.delete(missionBatches).where(eq(missionBatches.id, lotId));
  });
});

describe('distances on the lots', () => {
  let villeurbanne: string;
  let lille: string;
  beforeAll(async () => {
    villeurbanne = await createLot('Villeurbanne Hôtel de ville', [{ lat: 45.7665, lon: 4.8795 }]);
    lille = await createLot('Lille Grand-Place', [{ postalCode: '59000', city: 'Lille' }]);
    await backfillPositions(ctx.db);
  });
  afterAll(async () => {
    await ctx.db.delete(missions).where(inArray(missions.batchId, [villeurbanne, lille]));
    await ctx.db.delete(missionBatches).where(inArray(missionBatches.id, [villeurbanne, lille]));
  });

  it('Lyon – Villeurbanne and Paris – Lille as the crow flies, within 10 % of the geodesic and of the published distances', async () => {
    const fromLyon = (await list(cookieLyon, 'sort=nearest')).lots.find((l) => l.id === villeurbanne)!;
    const reference = vincentyMetres(LYON_1, { lat: 45.7665, lon: 4.8795 });
    expect(Math.abs(fromLyon.distance! - reference) / reference).toBeLessThan(0.1);
    expect(fromLyon.distance! / 1000).toBeGreaterThan(3.5);
    expect(fromLyon.distance! / 1000).toBeLessThan(4.5);
    expect(fromLyon.position).toEqual({ lat: 45.7665, lon: 4.8795, approximate: false });

    const fromParis = (await list(cookieParis, 'sort=nearest')).lots.find((l) => l.id === lille)!;
    // Paris – Lille: 204 km as the crow flies (city centres).
    expect(Math.abs(fromParis.distance! / 1000 - 204) / 204).toBeLessThan(0.1);
    expect(Math.abs(fromParis.distance! - vincentyMetres(PARIS_1, { lat: 50.63186, lon: 3.04699 })) / fromParis.distance!).toBeLessThan(0.01);
    // Placed by its postal code only: approximate.
    expect(fromParis.position).toEqual({ lat: 50.63186, lon: 3.04699, approximate: true });
    // A single site: there and back on the road estimate (great circle × 1.3), at 70 km/h.
    expect(fromParis.roundTrip!.distance).toBeCloseTo(2 * 1.3 * fromParis.distance!, -3);
    expect(fromParis.roundTrip!.duration).toBe(Math.round(fromParis.roundTrip!.distance / (70_000 / 3600)));
  });

  it('follows a new address on the next read (the home comes with the session; the cached page is dropped)', async () => {
    const mover = await createTechnician(ctx.db);
    const cookie = await login(ctx.app, mover.technician.email);
    await saveAddress(cookie, mover.technician.id, { address: '1 place de la Comédie', postalCode: '69001', city: 'Lyon' });
    // Within 200 km: an answer that does not read the kept counts, so only the address can make it stale.
    const within200 = async () => (await list(cookie, 'sort=nearest&radius=200&limit=100')).lots;
    expect((await within200()).find((l) => l.id === villeurbanne)!.distance).toBeLessThan(5_000);
    // The same read again: the cached answer.
    expect((await within200()).find((l) => l.id === villeurbanne)!.distance).toBeLessThan(5_000);
    await saveAddress(cookie, mover.technician.id, { address: '1 rue de Rivoli', postalCode: '75001', city: 'Paris' });
    // Paris – Villeurbanne: about 390 km.
    const fromParis = await within200();
    expect(fromParis.find((l) => l.id === villeurbanne)).toBeUndefined();
    expect(fromParis.find((l) => l.id === lille)).toBeUndefined();
    // The admin asking for this technician reads its home from the table: the same answer.
    const asAdmin = await as(ctx.app, cookieAdmin)({ method: 'GET', url: `${url}?technicianId=${mover.technician.id}&sort=nearest&limit=100` });
    const seen = availableLotSchema.array().parse(asAdmin.json()).find((l) => l.id === villeurbanne)!;
    expect(Math.abs(seen.distance! - vincentyMetres(PARIS_1, { lat: 45.7665, lon: 4.8795 })) / seen.distance!).toBeLessThan(0.01);
  });

  it('estimates the round trip through every site with the route engine (the best tour of a small lot)', async () => {
    const sites = [destination(LYON_1, 20, 0), destination(LYON_1, 20, 90), destination(LYON_1, 20, 180), destination(LYON_1, 20, 45)];
    const lotId = await createLot('Tournée', sites);
    await backfillPositions(ctx.db);
    const lot = (await list(cookieLyon, 'sort=nearest&limit=50')).lots.find((l) => l.id === lotId)!;
    const points = [LYON_1, ...sites];
    const leg = (i: number, j: number) => Math.round(vincentyMetres(points[i]!, points[j]!) * 1.3);
    let best = Infinity;
    const permute = (rest: number[], path: number[]) => {
      if (rest.length === 0) {
        let total = 0;
        let previous = 0;
        for (const stop of path) {
          total += leg(previous, stop);
          previous = stop;
        }
        best = Math.min(best, total + leg(previous, 0));
        return;
      }
      for (const next of rest) permute(rest.filter((r) => r !== next), [...path, next]);
    };
    permute([1, 2, 3, 4], []);
    expect(Math.abs(lot.roundTrip!.distance - best) / best).toBeLessThan(0.01);
    expect(lot.distance! / 1000).toBeCloseTo(20, 0);
    await ctx.db.delete(missions).where(eq(missions.batchId, lotId));
    await ctx.db.delete(missionBatches).where(eq(missionBatches.id, lotId));
  });
});

describe('nearest first and radius on a generated set', () => {
  const expected: { id: string; km: number | null; createdAt: number }[] = [];
  const ids: string[] = [];
  beforeAll(async () => {
    // 45 lots around Lyon from 2 to 900 km, 1 to 3 sites each, some placed by postal code only, and 3 lots without any
    // located site (no mission, a mission without address, an unknown postal code).
    const radii = [2, 4, 6, 9, 12, 14, 18, 22, 24, 27, 33, 40, 45, 49, 52, 60, 75, 90, 99, 101, 120, 140, 160, 180, 199, 205, 230, 260, 300, 340, 380, 420, 470, 520, 580, 640, 700, 760, 820, 880, 890, 895, 897, 899, 900];
    for (const [i, km] of radii.entries()) {
      const bearing = (i * 47) % 360;
      const near = destination(LYON_1, km, bearing);
      const sites = [near, destination(LYON_1, km + 15, bearing + 20), destination(LYON_1, km + 40, bearing - 30)].slice(0, 1 + (i % 3));
      const id = await createLot(`Généré ${String(i).padStart(2, '0')}`, sites, { createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)) });
      ids.push(id);
      expected.push({ id, km: Math.min(...sites.map((s) => haversineKm(LYON_1, s))), createdAt: i });
    }
    ids.push(await createLot('Généré sans site', [], { createdAt: new Date(Date.UTC(2026, 0, 2)) }));
    ids.push(await createLot('Généré sans adresse', [null], { createdAt: new Date(Date.UTC(2026, 0, 3)) }));
    ids.push(await createLot('Généré code inconnu', [{ postalCode: '00000', city: 'Atlantide' }], { createdAt: new Date(Date.UTC(2026, 0, 4)) }));
    // Placed by the postal code of Villeurbanne: about 4.7 km from Lyon 1er.
    const approximate = await createLot('Généré Villeurbanne (code postal)', [{ postalCode: '69100', city: 'Villeurbanne' }], { createdAt: new Date(Date.UTC(2026, 0, 5)) });
    ids.push(approximate);
    expected.push({ id: approximate, km: haversineKm(LYON_1, { lat: 45.771, lon: 4.88907 }), createdAt: 100 });
    await backfillPositions(ctx.db);
  });
  afterAll(async () => {
    await ctx.db.delete(missions).where(inArray(missions.batchId, ids));
    await ctx.db.delete(missionBatches).where(inArray(missionBatches.id, ids));
  });

  it('pages nearest first through every ring, then the lots without a position, with an unchanged X-Total-Count', async () => {
    const seen: Lot[] = [];
    for (let offset = 0; offset < 60; offset += 7) {
      const page = await list(cookieLyon, `sort=nearest&tag=G%C3%A9o&limit=7&offset=${offset}`);
      expect(page.total).toBe(49);
      seen.push(...page.lots);
    }
    expect(seen).toHaveLength(49);
    expect(new Set(seen.map((l) => l.id)).size).toBe(49);
    const order = [...expected].sort((a, b) => a.km! - b.km!).map((e) => e.id);
    expect(seen.slice(0, 46).map((l) => l.id)).toEqual(order);
    for (const lot of seen.slice(0, 46)) {
      const reference = expected.find((e) => e.id === lot.id)!.km! * 1000;
      expect(Math.abs(lot.distance! - reference)).toBeLessThan(2);
      expect(lot.roundTrip!.distance).toBeGreaterThanOrEqual(2 * lot.distance!);
    }
    // The three lots without a located site come last, most recent first, without distance.
    expect(seen.slice(46).map((l) => l.title)).toEqual(['Généré code inconnu', 'Généré sans adresse', 'Généré sans site']);
    expect(seen.slice(46).every((l) => l.distance === null && l.roundTrip === null && l.position === null)).toBe(true);
  });

  it('keeps the lots with a site within the radius, nearest first, counted', async () => {
    for (const radius of [25, 50, 100, 200]) {
      const within = expected.filter((e) => e.km! <= radius).sort((a, b) => a.km! - b.km!).map((e) => e.id);
      const page = await list(cookieLyon, `tag=G%C3%A9o&radius=${radius}&limit=100`);
      expect(page.total).toBe(within.length);
      expect(page.lots.map((l) => l.id)).toEqual(within);
      // The same radius, most recent first.
      const recent = await list(cookieLyon, `tag=G%C3%A9o&radius=${radius}&sort=recent&limit=100`);
      expect(new Set(recent.lots.map((l) => l.id))).toEqual(new Set(within));
      expect(recent.total).toBe(within.length);
      const times = recent.lots.map((l) => Date.parse(l.createdAt));
      expect(times).toEqual([...times].sort((a, b) => b - a));
    }
    const paged = await list(cookieLyon, 'tag=G%C3%A9o&radius=200&limit=5&offset=100');
    expect(paged).toMatchObject({ lots: [], total: expected.filter((e) => e.km! <= 200).length });
  });

  it('combines the radius with the other filters', async () => {
    const page = await list(cookieLyon, 'tag=G%C3%A9o&radius=50&search=Villeurbanne');
    expect(page.lots.map((l) => l.title)).toEqual(['Généré Villeurbanne (code postal)']);
    expect(page.lots[0]!.position!.approximate).toBe(true);
    expect(page.total).toBe(1);
  });

  it('a technician without an address gets the most recent first, no distance, and the radius is not applied', async () => {
    const recent = await list(cookieNowhere, 'tag=G%C3%A9o&sort=nearest&radius=25&limit=3');
    expect(recent.total).toBe(49);
    expect(recent.lots.map((l) => l.title)).toEqual(['Généré Villeurbanne (code postal)', 'Généré code inconnu', 'Généré sans adresse']);
    expect(recent.lots.every((l) => l.distance === null && l.roundTrip === null)).toBe(true);
    // Positions are still known, for the map.
    expect(recent.lots[0]!.position).toMatchObject({ approximate: true });
    // The admin (no address) reads the same list.
    const admin = await list(cookieAdmin, 'tag=G%C3%A9o&limit=3');
    expect(admin.lots.map((l) => l.title)).toEqual(recent.lots.map((l) => l.title));
  });

  it('defaults to nearest first when the address is known', async () => {
    const byDefault = await list(cookieLyon, 'tag=G%C3%A9o&limit=5');
    const nearest = await list(cookieLyon, 'tag=G%C3%A9o&limit=5&sort=nearest');
    expect(byDefault.lots.map((l) => l.id)).toEqual(nearest.lots.map((l) => l.id));
    expect(byDefault.lots[0]!.distance).toBeLessThan(3000);
  });

  it('the map: a marker per located lot, nearest first, with the home and the lots it cannot place', async () => {
    const response = await as(ctx.app, cookieLyon)({ method: 'GET', url: `${url}/map?tag=G%C3%A9o` });
    expect(response.statusCode).toBe(200);
    const map = availableLotsMapSchema.parse(response.json());
    expect(map.home).toEqual(LYON_1);
    expect(map.total).toBe(46);
    expect(map.unlocated).toBe(3);
    expect(map.lots).toHaveLength(46);
    expect(map.lots.find((l) => l.title === 'Généré Villeurbanne (code postal)')).toMatchObject({ lat: 45.771, lon: 4.88907, approximate: true });
    expect(map.lots.find((l) => l.title === 'Généré 00')).toMatchObject({ approximate: false });
    // Nearest first, by each marker's own point.
    const kms = map.lots.map((l) => haversineKm(LYON_1, l));
    expect(kms).toEqual([...kms].sort((a, b) => a - b));
    expect(kms[0]).toBeLessThan(3);
    const within = await as(ctx.app, cookieLyon)({ method: 'GET', url: `${url}/map?tag=G%C3%A9o&radius=50` });
    const near = availableLotsMapSchema.parse(within.json());
    expect(near.lots.map((l) => l.id).sort()).toEqual(expected.filter((e) => e.km! <= 50).map((e) => e.id).sort());
    expect(near.unlocated).toBe(0);
    expect(near.total).toBe(near.lots.length);
    // With the free text too: the total counts the placed lots of the search.
    const searched = availableLotsMapSchema.parse((await as(ctx.app, cookieLyon)({ method: 'GET', url: `${url}/map?tag=G%C3%A9o&search=code` })).json());
    expect(searched.lots.map((l) => l.title)).toEqual(['Généré Villeurbanne (code postal)']);
    expect(searched).toMatchObject({ total: 1, unlocated: 1 });
    // Nothing found: an empty list, not a list holding an empty marker.
    const none = await as(ctx.app, cookieLyon)({ method: 'GET', url: `${url}/map?tag=G%C3%A9o&search=introuvable` });
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual({ home: LYON_1, lots: [], total: 0, unlocated: 0 });
    // Without an address: no home, every located lot.
    const anywhere = availableLotsMapSchema.parse((await as(ctx.app, cookieNowhere)({ method: 'GET', url: `${url}/map?tag=G%C3%A9o` })).json());
    expect(anywhere).toMatchObject({ home: null, total: 46, unlocated: 3 });
    // Most recent first.
    expect(anywhere.lots.slice(0, 3).map((l) => l.title)).toEqual(['Généré Villeurbanne (code postal)', 'Généré 44', 'Généré 43']);
  });

  it('one open lot for the map popup (404 when not open, other technician ids 404, 401 anonymous)', async () => {
    const id = expected[0]!.id;
    const response = await as(ctx.app, cookieLyon)({ method: 'GET', url: `${url}/${id}?technicianId=${lyon.technician.id}` });
    expect(response.statusCode).toBe(200);
    const lot = availableLotSchema.parse(response.json());
    expect(lot).toMatchObject({ id, title: 'Généré 00', hasApplied: false });
    expect(lot.distance! / 1000).toBeCloseTo(2, 0);
    await ctx.db.update(missionBatches).set({ visibility: 'invisible' }).where(eq(missionBatches.id, id));
    expect((await as(ctx.app, cookieLyon)({ method: 'GET', url: `${url}/${id}` })).statusCode).toBe(404);
    await ctx.db.update(missionBatches).set({ visibility: 'visible' }).where(eq(missionBatches.id, id));
    expect((await as(ctx.app, cookieParis)({ method: 'GET', url: `${url}/${id}?technicianId=${lyon.technician.id}` })).statusCode).toBe(404);
    expect((await as(ctx.app, null)({ method: 'GET', url: `${url}/${id}` })).statusCode).toBe(401);
    expect((await as(ctx.app, cookieLyon)({ method: 'GET', url: `${url}/not-an-id` })).statusCode).toBe(400);
  });

  it('refuses a radius or an order it does not offer, in French', async () => {
    const radius = await as(ctx.app, cookieLyon)({ method: 'GET', url: `${url}?radius=30` });
    expect(radius.statusCode).toBe(400);
    expect(radius.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: 'Rayon invalide (25, 50, 100 ou 200 km)' });
    const sort = await as(ctx.app, cookieLyon)({ method: 'GET', url: `${url}?sort=cheapest` });
    expect(sort.statusCode).toBe(400);
    expect(sort.json().message).toBe('Tri invalide');
    const mapRadius = await as(ctx.app, cookieLyon)({ method: 'GET', url: `${url}/map?radius=abc` });
    expect(mapRadius.statusCode).toBe(400);
  });
});

describe('nearest first walks the open lots\' sites in order of distance (lot_sites, decision 030)', () => {
  const tag = 'Égalité';
  const expected: { id: string; km: number; createdAt: number; department: string }[] = [];
  const ids: string[] = [];
  // More lots at one point than the first reading takes sites: the page needs a second, longer reading.
  const TIED = FIRST_SITES_MIN + 16;
  beforeAll(async () => {
    const tiedPoint = destination(LYON_1, 3, 200);
    const lots: { title: string; sites: { lat: number; lon: number }[]; department: string }[] = [];
    for (let i = 0; i < TIED; i += 1) {
      // Each tied lot also has a site further away; every fourth is in the Ain.
      lots.push({ title: `Égalité ${i}`, sites: [tiedPoint, destination(LYON_1, 20 + i, (i * 37) % 360)], department: i % 4 === 0 ? '01' : '69' });
    }
    for (let i = 0; i < 40; i += 1) {
      lots.push({ title: `Autour ${i}`, sites: [destination(LYON_1, 1 + i * 0.7, (i * 53) % 360)], department: i % 4 === 0 ? '01' : '69' });
    }
    const inserted = await ctx.db
      .insert(missionBatches)
      .values(lots.map((lot, i) => ({ title: lot.title, departments: [lot.department], tags: [tag], visibility: 'visible', createdAt: new Date(Date.UTC(2026, 1, 1, 0, 0, i * 7 % 101)) })))
      .returning({ id: missionBatches.id, createdAt: missionBatches.createdAt });
    await ctx.db.insert(missions).values(
      lots.flatMap((lot, i) => lot.sites.map((site, j) => ({ title: `${lot.title} — ${j}`, batchId: inserted[i]!.id, latitude: site.lat, longitude: site.lon }))),
    );
    await refreshLotsGeometry(ctx.db, inserted.map((l) => l.id));
    for (const [i, lot] of lots.entries()) {
      ids.push(inserted[i]!.id);
      expected.push({ id: inserted[i]!.id, km: Math.min(...lot.sites.map((site) => haversineKm(LYON_1, site))), createdAt: inserted[i]!.createdAt.getTime(), department: lot.department });
    }
  });
  afterAll(async () => {
    await ctx.db.delete(missions).where(inArray(missions.batchId, ids));
    await ctx.db.delete(missionBatches).where(inArray(missionBatches.id, ids));
  });

  /** The order the page must have: distance, then the most recent, then the id. */
  const order = (rows: typeof expected) =>
    [...rows].sort((a, b) => a.km - b.km || b.createdAt - a.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map((e) => e.id);

  async function pages(query: string, size: number, count: number): Promise<{ ids: string[]; totals: number[] }> {
    const seen: string[] = [];
    const totals: number[] = [];
    for (let offset = 0; offset < count + size; offset += size) {
      const page = await list(cookieLyon, `${query}&limit=${size}&offset=${offset}`);
      seen.push(...page.lots.map((l) => l.id));
      totals.push(page.total);
    }
    return { ids: seen, totals };
  }

  it('orders exact ties (many lots at one point) by the most recent, across pages, reading sites again when needed', async () => {
    expect(TIED).toBeGreaterThan(FIRST_SITES_MIN);
    const { ids: seen, totals } = await pages(`tag=${encodeURIComponent(tag)}&sort=nearest`, 9, expected.length);
    expect(seen).toEqual(order(expected));
    expect(new Set(totals)).toEqual(new Set([expected.length]));
  });

  it('reads a first page whose lots are all tied in one statement: the sites as far as the last one read come with it', async () => {
    // Count the statements the search runs (preparedSql runs each through the session's prepareQuery).
    let statements = 0;
    const session = ctx.db._.session;
    const counting = new Proxy(session, {
      get(target, key, receiver) {
        if (key !== 'prepareQuery') return Reflect.get(target, key, receiver);
        return (...args: Parameters<typeof session.prepareQuery>) => {
          statements += 1;
          return session.prepareQuery(...args);
        };
      },
    });
    const db = Object.assign(Object.create(Object.getPrototypeOf(ctx.db) as object) as typeof ctx.db, ctx.db, { _: { ...ctx.db._, session: counting } });
    const page = await findAvailableLots(db, { technicianId: lyon.technician.id, knownHome: destination(LYON_1, 3, 200), tag, sort: 'nearest', limit: 9, offset: 0 });
    expect(statements).toBe(1);
    // From the tied point every tied lot is at 0 m: the most recent first, then by id.
    const tied = expected.slice(0, TIED).map((e) => ({ ...e, km: 0 }));
    const items = z.array(availableLotSchema.strict()).parse(JSON.parse(page.json));
    expect(items.map((l) => l.id)).toEqual(order(tied).slice(0, 9));
    expect(items.every((l) => l.distance === 0)).toBe(true);
  });

  it('filters by department through its own index, with the same order', async () => {
    const ain = expected.filter((e) => e.department === '01');
    const { ids: seen, totals } = await pages(`tag=${encodeURIComponent(tag)}&department=01&sort=nearest`, 6, ain.length);
    expect(seen).toEqual(order(ain));
    expect(new Set(totals)).toEqual(new Set([ain.length]));
  });

  it('gives the same lots, distances and order as a brute-force reading of every lot', async () => {
    const first = await list(cookieLyon, `tag=${encodeURIComponent(tag)}&limit=100`);
    const rest = await list(cookieLyon, `tag=${encodeURIComponent(tag)}&limit=100&offset=100`);
    const lots = [...first.lots, ...rest.lots];
    expect(lots.map((l) => l.id)).toEqual(order(expected));
    for (const lot of lots) expect(Math.abs(lot.distance! - expected.find((e) => e.id === lot.id)!.km * 1000)).toBeLessThan(1);
  });
});

describe('lot geometry follows its missions', () => {
  it('moving, editing, creating and deleting missions update the lots in the same transaction', async () => {
    const a = await createLot('Géométrie A', [{ lat: 45.75, lon: 4.85 }, { lat: 45.2, lon: 5.7 }]);
    const b = await createLot('Géométrie B', [{ lat: 48.85, lon: 2.35 }]);
    await backfillPositions(ctx.db);
    const geometry = async (id: string) => {
      const [row] = await ctx.db
        .select({
          sites: missionBatches.geoSiteCount,
          approximate: missionBatches.geoApproximateCount,
          minLat: missionBatches.geoMinLat,
          maxLat: missionBatches.geoMaxLat,
          minLon: missionBatches.geoMinLon,
          maxLon: missionBatches.geoMaxLon,
          lats: missionBatches.geoSiteLats,
        })
        .from(missionBatches)
        .where(eq(missionBatches.id, id));
      return row!;
    };
    expect(await geometry(a)).toMatchObject({ sites: 2, minLat: 45.2, maxLat: 45.75, minLon: 4.85, maxLon: 5.7 });
    const grenoble = (await ctx.db.select({ id: missions.id }).from(missions).where(eq(missions.latitude, 45.2)))[0]!.id;
    const distanceToB = async () => (await list(cookieLyon, 'search=G%C3%A9om%C3%A9trie&limit=10')).lots.find((l) => l.id === b)!.distance!;
    expect(await distanceToB()).toBeGreaterThan(350_000);

    // Organiser: Grenoble's device moves from A to B.
    const move = await as(ctx.app, cookieAdmin)({ method: 'PATCH', url: '/api/missions/move-to-batch', payload: { missionIds: [grenoble], batchId: b } });
    expect(move.statusCode, move.body).toBe(200);
    expect(await geometry(a)).toMatchObject({ sites: 1, minLat: 45.75, maxLat: 45.75, lats: [45.75] });
    expect(await geometry(b)).toMatchObject({ sites: 2, minLat: 45.2, maxLat: 48.85, minLon: 2.35, maxLon: 5.7 });
    // The list and its read cache follow at once: B now has a site near Lyon.
    expect((await distanceToB()) / 1000).toBeLessThan(100);

    // Edit: the Paris device loses its coordinates and is placed by its postal code (Lille): approximate.
    const parisDevice = (await ctx.db.select({ id: missions.id }).from(missions).where(eq(missions.latitude, 48.85)))[0]!.id;
    await ctx.db.update(missions).set({ latitude: null, longitude: null }).where(eq(missions.id, parisDevice));
    const edit = await as(ctx.app, cookieAdmin)({
      method: 'PUT',
      url: `/api/missions/${parisDevice}`,
      payload: {
        serialNumber: 'SN-1',
        clientName: 'Client',
        defibrillatorModel: 'Zoll AED Plus',
        visitType: 'Maintenance',
        department: '59',
        completionLink: 'https://formulaires.maillon.fr/c',
        address: 'Grand-Place, 59000 Lille',
        postalCode: '59000',
        city: 'Lille',
      },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(await geometry(b)).toMatchObject({ sites: 2, approximate: 1, maxLat: 50.63186 });

    // Back to "À trier", then deleted: the lots lose the site.
    const unsort = await as(ctx.app, cookieAdmin)({ method: 'PATCH', url: '/api/missions/move-to-batch', payload: { missionIds: [grenoble], batchId: null } });
    expect(unsort.statusCode).toBe(200);
    expect(await geometry(b)).toMatchObject({ sites: 1, minLat: 50.63186 });
    const removed = await as(ctx.app, cookieAdmin)({ method: 'DELETE', url: `/api/missions/${parisDevice}` });
    expect(removed.statusCode).toBe(200);
    expect(await geometry(b)).toMatchObject({ sites: 0, minLat: null, lats: [] });
    expect((await list(cookieLyon, 'search=G%C3%A9om%C3%A9trie&limit=10')).lots.find((l) => l.id === b)).toMatchObject({ distance: null, position: null });

    // A mission created directly in a lot, with a postal code only.
    const created = await as(ctx.app, cookieAdmin)({
      method: 'POST',
      url: '/api/missions',
      payload: { title: 'Nouvelle', description: 'Visite', location: 'Place Bellecour, 69002 Lyon', department: '69', budget: 150, deadline: '2027-01-10', batchId: b, postalCode: '69002', city: 'Lyon' },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(await geometry(b)).toMatchObject({ sites: 1, approximate: 1, minLat: 45.74833, minLon: 4.82568 });
  });

  it('an edit that does not move the site leaves its lot as it is; one that moves it recomputes the lot', async () => {
    const lot = await createLot('Géométrie édition', [{ postalCode: '69002', city: 'Lyon' }]);
    const [mission] = await ctx.db.select({ id: missions.id }).from(missions).where(eq(missions.batchId, lot));
    const site = { department: '69', address: 'Place Bellecour, 69002 Lyon', postalCode: '69002', city: 'Lyon' };
    const edit = async (fields: Record<string, string>) => {
      const response = await as(ctx.app, cookieAdmin)({
        method: 'PUT',
        url: `/api/missions/${mission!.id}`,
        payload: { serialNumber: 'SN-EDIT-1', clientName: 'Client', defibrillatorModel: 'Zoll AED Plus', visitType: 'Maintenance', completionLink: 'https://formulaires.maillon.fr/c', ...site, ...fields },
      });
      expect(response.statusCode, response.body).toBe(200);
    };
    const sites = async () => (await ctx.db.select({ n: missionBatches.geoSiteCount, lat: missionBatches.geoLat }).from(missionBatches).where(eq(missionBatches.id, lot)))[0]!;
    await edit({});
    expect(await sites()).toMatchObject({ n: 1, lat: 45.74833 });
    // A mark written behind the API: an edit that recomputed the geometry would erase it.
    await ctx.db.update(missionBatches).set({ geoSiteCount: 7 }).where(eq(missionBatches.id, lot));
    await edit({ clientName: 'Client renommé', observations: 'Accès par la loge' });
    expect(await sites()).toMatchObject({ n: 7, lat: 45.74833 });
    await edit({ department: '38', address: 'Place Grenette, 38000 Grenoble', postalCode: '38000', city: 'Grenoble' });
    const moved = await sites();
    expect(moved.n).toBe(1);
    expect(moved.lat).toBeCloseTo(45.19, 1);
  });

  it('a rolled-back move leaves the geometry as it was', async () => {
    const open = await createLot('Géométrie ouverte', [{ lat: 44.84, lon: -0.58 }]);
    const done = await createLot('Géométrie terminée', [], { status: 'completed' });
    await backfillPositions(ctx.db);
    const [mission] = await ctx.db.select({ id: missions.id }).from(missions).where(eq(missions.batchId, open));
    const refused = await as(ctx.app, cookieAdmin)({ method: 'PATCH', url: '/api/missions/move-to-batch', payload: { missionIds: [mission!.id], batchId: done } });
    expect(refused.statusCode).toBe(409);
    const [row] = await ctx.db.select({ sites: missionBatches.geoSiteCount, lat: missionBatches.geoLat }).from(missionBatches).where(eq(missionBatches.id, open));
    expect(row).toEqual({ sites: 1, lat: 44.84 });
  });
});
