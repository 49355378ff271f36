import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { learningResources, missionBatches, resourceViews, shipments } from '../../db/schema';
import { loadConfig } from '../../config';
import { accessPlugin } from '../../plugins/access';
import { as, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';

let ctx: TestContext;
let techA: Awaited<ReturnType<typeof createTechnician>>;
let techB: Awaited<ReturnType<typeof createTechnician>>;
let cookieA: string;
let cookieB: string;
let cookieAdmin: string;

beforeAll(async () => {
  ctx = await createTestContext();
  techA = await createTechnician(ctx.db);
  techB = await createTechnician(ctx.db);
  const admin = await createAdmin(ctx.db);
  [cookieA, cookieB, cookieAdmin] = await Promise.all([
    login(ctx.app, techA.technician.email),
    login(ctx.app, techB.technician.email),
    login(ctx.app, admin.email),
  ]);
  const [r1, r2] = await ctx.db
    .insert(learningResources)
    .values([
      { title: 'Module 1', description: 'd', url: 'https://a.test', type: 'video', duration: 5 },
      { title: 'Module 2', description: 'd', url: 'https://b.test', type: 'pdf', duration: 5 },
    ])
    .returning();
  await ctx.db.insert(resourceViews).values({ resourceId: r1!.id, technicianId: techA.technician.id });
  void r2;
  await ctx.db.insert(missionBatches).values([
    { title: 'Visible', visibility: 'visible' },
    { title: 'Invisible', visibility: 'invisible' },
    { title: 'Terminé', visibility: 'visible', status: 'completed' },
  ]);
  await ctx.db.insert(shipments).values([
    { technicianId: techA.technician.id, status: 'in_transit' },
    { technicianId: techB.technician.id, status: 'in_transit' },
    { technicianId: techA.technician.id, status: 'delivered' },
  ]);
});
afterAll(async () => {
  await ctx.close();
});

describe('GET /api/technicians/:id/counts', () => {
  it('gives the technician its own tab counts', async () => {
    const response = await as(ctx.app, cookieA)({ method: 'GET', url: `/api/technicians/${techA.technician.id}/counts` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ formation: { total: 2, read: 1 }, findMissions: 1, applications: 0, revenue: 0, packages: 1 });
  });

  it('answers 404 to another technician, 401 without a session, 200 to the admin', async () => {
    const url = `/api/technicians/${techA.technician.id}/counts`;
    expect((await as(ctx.app, cookieB)({ method: 'GET', url })).statusCode).toBe(404);
    expect((await as(ctx.app, null)({ method: 'GET', url })).statusCode).toBe(401);
    expect((await as(ctx.app, cookieAdmin)({ method: 'GET', url })).statusCode).toBe(200);
  });

  it('rejects a malformed id with 400', async () => {
    const response = await as(ctx.app, cookieA)({ method: 'GET', url: '/api/technicians/pas-un-uuid/counts' });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_ERROR');
  });
});

describe('GET /api/admin/counts', () => {
  it('is for the admin only: 401 anonymous, 403 technician', async () => {
    expect((await as(ctx.app, null)({ method: 'GET', url: '/api/admin/counts' })).statusCode).toBe(401);
    const forTech = await as(ctx.app, cookieA)({ method: 'GET', url: '/api/admin/counts' });
    expect(forTech.statusCode).toBe(403);
    expect(forTech.json().code).toBe('FORBIDDEN');
    const forAdmin = await as(ctx.app, cookieAdmin)({ method: 'GET', url: '/api/admin/counts' });
    expect(forAdmin.statusCode).toBe(200);
    expect(forAdmin.json()).toMatchObject({ librairie: 2, expeditions: 2, missionsLots: 2 });
  });
});

describe('GET /api/public/config', () => {
  it('is public', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/public/config' });
    expect(response.statusCode).toBe(200);
    expect(response.json().productName).toBe('Maillon');
  });
});

describe('route access declarations', () => {
  it('refuses to start when an /api route declares no access', async () => {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(accessPlugin);
    expect(() => app.get('/api/sans-acces', async () => 'x')).toThrow(/ne déclare pas son accès/);
    await app.close();
  });

  it('lists every /api route with its declared access', () => {
    const entry = (method: string, url: string) => ctx.app.routeAccess.find((r) => r.method === method && r.url === url);
    expect(entry('POST', '/api/auth/login')?.access).toBe('public');
    expect(entry('GET', '/api/auth/me')?.access).toBe('user');
    expect(entry('GET', '/api/admin/counts')?.access).toBe('admin');
    expect(ctx.app.routeAccess.every((r) => r.access)).toBe(true);
  });
});

describe('GET /api/public/config: the map tiles', () => {
  it('gives MAP_TILE_URL and MAP_ATTRIBUTION to the web app (null without them: the bundled outline only)', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/public/config' })).json().map).toEqual({ tileUrl: null, attribution: null });
    const tiles = 'https://data.geopf.fr/wmts?SERVICE=WMTS&REQUEST=GetTile&VERSION=1.0.0&LAYER=GEOGRAPHICALGRIDSYSTEMS.PLANIGNV2&STYLE=normal&TILEMATRIXSET=PM&FORMAT=image/png&TILEMATRIX={z}&TILECOL={x}&TILEROW={y}';
    const config = loadConfig({ MAP_TILE_URL: tiles, MAP_ATTRIBUTION: '© IGN – Géoplateforme' });
    const withTiles = await createTestContext({ MAP_TILE_URL: config.MAP_TILE_URL, MAP_ATTRIBUTION: config.MAP_ATTRIBUTION });
    try {
      const response = await withTiles.app.inject({ method: 'GET', url: '/api/public/config' });
      expect(response.json().map).toEqual({ tileUrl: tiles, attribution: '© IGN – Géoplateforme' });
      expect(response.headers['content-security-policy']).toContain('img-src \'self\' data: blob: https://data.geopf.fr');
    } finally {
      await withTiles.close();
    }
    expect(() => loadConfig({ MAP_ATTRIBUTION: 'x'.repeat(301) })).toThrow(/MAP_ATTRIBUTION/);
  });
});
