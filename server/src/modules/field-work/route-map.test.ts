import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeMapSchema, sortRouteResponseSchema } from '@maillon/common/schemas/field-work';
import { applications, missionBatches, missions } from '../../db/schema';
import { recruitApplication } from '../lifecycle/lifecycle.service';
import { as, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';

/** The Recruté view's map (issue 18): devices numbered in the route order, done ones apart, the round trip from home. */

let ctx: TestContext;
let tech: Awaited<ReturnType<typeof createTechnician>>;
let other: Awaited<ReturnType<typeof createTechnician>>;
let cookie: string;
let cookieOther: string;
let cookieAdmin: string;
let applicationId: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  ctx = await createTestContext();
  tech = await createTechnician(ctx.db, { address: '10 rue Oberkampf', postalCode: '75011', city: 'Paris' });
  other = await createTechnician(ctx.db);
  const admin = await createAdmin(ctx.db);
  [cookie, cookieOther, cookieAdmin] = await Promise.all([login(ctx.app, tech.technician.email), login(ctx.app, other.technician.email), login(ctx.app, admin.email)]);
  const [lot] = await ctx.db.insert(missionBatches).values({ title: 'Tournée Île-de-France', visibility: 'visible', priceCents: 40_000 }).returning();
  const rows = await ctx.db
    .insert(missions)
    .values([
      { title: 'Meaux', batchId: lot!.id, status: 'active', latitude: 48.9601, longitude: 2.8788, createdAt: new Date('2026-01-01T00:00:01Z') },
      { title: 'Saint-Denis', batchId: lot!.id, status: 'active', latitude: 48.93, longitude: 2.36, createdAt: new Date('2026-01-01T00:00:02Z') },
      // Placed by its postal code only.
      { title: 'Créteil', batchId: lot!.id, status: 'active', postalCode: '94000', city: 'Créteil', createdAt: new Date('2026-01-01T00:00:03Z') },
      // Coordinates equal to its commune's reference point (filled in by moderation): approximate too.
      { title: 'Boulogne', batchId: lot!.id, status: 'active', postalCode: '92100', city: 'Boulogne-Billancourt', latitude: 48.8364, longitude: 2.23907, createdAt: new Date('2026-01-01T00:00:04Z') },
      { title: 'Nulle part', batchId: lot!.id, status: 'active', createdAt: new Date('2026-01-01T00:00:05Z') },
    ])
    .returning();
  for (const row of rows) ids[row.title] = row.id;
  const [application] = await ctx.db.insert(applications).values({ batchId: lot!.id, technicianId: tech.technician.id }).returning();
  applicationId = application!.id;
  await ctx.db.transaction((tx) => recruitApplication(tx, { applicationId }));
});
afterAll(async () => {
  await ctx.close();
});

const url = () => `/api/applications/${applicationId}/route-map`;

describe('GET /api/applications/:id/route-map', () => {
  it('places every device it can, numbered like the list, with the round trip from home through the undone ones', async () => {
    const response = await as(ctx.app, cookie)({ method: 'GET', url: url() });
    expect(response.statusCode, response.body).toBe(200);
    const map = routeMapSchema.parse(response.json());
    expect(map.home).toEqual({ lat: 48.85905, lon: 2.38003 });
    expect(map.unlocated).toBe(1);
    expect(map.sorted).toBe(false);
    expect(map.stops.map((s) => [s.title, s.number, s.approximate])).toEqual([
      ['Meaux', 1, false],
      ['Saint-Denis', 2, false],
      ['Créteil', 3, true],
      ['Boulogne', 4, true],
    ]);
    expect(map.route!.order).toEqual([ids['Meaux'], ids['Saint-Denis'], ids['Créteil'], ids['Boulogne']]);
    expect(map.route!.source).toBe('estimate');
    expect(map.route!.distance).toBeGreaterThan(60_000);
  });

  it('follows « Trier pour économiser ma route »: the sorted order, a shorter round trip, done devices out of the route', async () => {
    const before = routeMapSchema.parse((await as(ctx.app, cookie)({ method: 'GET', url: url() })).json());
    const sorted = await as(ctx.app, cookie)({ method: 'POST', url: `/api/applications/${applicationId}/sort-route` });
    expect(sorted.statusCode, sorted.body).toBe(200);
    const result = sortRouteResponseSchema.parse(sorted.json());
    const after = routeMapSchema.parse((await as(ctx.app, cookie)({ method: 'GET', url: url() })).json());
    expect(after.sorted).toBe(true);
    const located = result.stops.filter((s) => s.distance !== null).map((s) => s.missionId);
    expect(after.route!.order).toEqual(located);
    expect(after.stops.map((s) => s.missionId)).toEqual(located);
    expect(after.stops.map((s) => s.number)).toEqual([1, 2, 3, 4]);
    expect(after.route!.distance).toBeLessThanOrEqual(before.route!.distance);
    expect(after.route!.distance).toBe(result.totalDistance);

    // One device done: greyed on the map, out of the route.
    const done = await as(ctx.app, cookie)({
      method: 'POST',
      url: '/api/technician-mission-data',
      payload: { missionId: ids['Meaux'], technicianId: tech.technician.id, isCompleted: true },
    });
    expect(done.statusCode, done.body).toBeLessThan(300);
    const withDone = routeMapSchema.parse((await as(ctx.app, cookie)({ method: 'GET', url: url() })).json());
    expect(withDone.stops.find((s) => s.missionId === ids['Meaux'])).toMatchObject({ isCompleted: true });
    expect(withDone.route!.order).not.toContain(ids['Meaux']);
    expect(withDone.route!.order).toHaveLength(3);
  });

  it('without an address: the devices, no home, no route', async () => {
    const [lot] = await ctx.db.insert(missionBatches).values({ title: 'Sans adresse', visibility: 'visible' }).returning();
    await ctx.db.insert(missions).values({ title: 'Lyon', batchId: lot!.id, status: 'active', postalCode: '69002', city: 'Lyon' });
    const [application] = await ctx.db.insert(applications).values({ batchId: lot!.id, technicianId: other.technician.id }).returning();
    await ctx.db.transaction((tx) => recruitApplication(tx, { applicationId: application!.id }));
    const map = routeMapSchema.parse((await as(ctx.app, cookieOther)({ method: 'GET', url: `/api/applications/${application!.id}/route-map` })).json());
    expect(map).toMatchObject({ home: null, route: null, unlocated: 0 });
    expect(map.stops).toEqual([expect.objectContaining({ title: 'Lyon', lat: 45.74833, lon: 4.82568, approximate: true, number: 1 })]);
  });

  it('is for the recruit and the admin only (404 for another technician, 401 anonymous)', async () => {
    expect((await as(ctx.app, cookieOther)({ method: 'GET', url: url() })).statusCode).toBe(404);
    expect((await as(ctx.app, null)({ method: 'GET', url: url() })).statusCode).toBe(401);
    const admin = await as(ctx.app, cookieAdmin)({ method: 'GET', url: url() });
    expect(admin.statusCode).toBe(200);
    expect(routeMapSchema.parse(admin.json()).home).toEqual({ lat: 48.85905, lon: 2.38003 });
    expect((await as(ctx.app, cookie)({ method: 'GET', url: '/api/applications/abc/route-map' })).statusCode).toBe(400);
  });
});
