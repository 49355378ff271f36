import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { availableLotSchema, availableLotsMapSchema, lotFiltersSchema, MAP_LOTS_MAX } from '@maillon/common/schemas/lots';
import { applications, missionBatches, missions } from '../../db/schema';
import { as, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';

let ctx: TestContext;
let techA: Awaited<ReturnType<typeof createTechnician>>;
let techB: Awaited<ReturnType<typeof createTechnician>>;
let cookieA: string;
let cookieB: string;
let cookieAdmin: string;
const lots: Record<string, string> = {};

const url = '/api/mission-batches/available-for-application';
type Lot = ReturnType<typeof availableLotSchema.parse>;
const titles = (body: Lot[]) => body.map((l) => l.title).sort();

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
  const rows = await ctx.db
    .insert(missionBatches)
    .values([
      { title: 'Paris Est', description: 'Électrodes à changer', priceCents: 96_000, departments: ['75', '93'], tags: ['Maintenance', 'Électrodes'], visibility: 'visible', deadline: new Date('2026-12-20T18:00:00Z') },
      { title: 'Hauts-de-Seine', description: null, priceCents: 72_050, departments: ['92'], tags: ['Contrôle'], visibility: 'visible' },
      { title: 'Lyon Centre', description: 'Batteries', priceCents: 84_000, departments: ['69'], tags: ['Maintenance'], visibility: 'visible' },
      { title: 'Invisible 75', departments: ['75'], tags: ['Maintenance'], visibility: 'invisible' },
      { title: 'Terminé 75', departments: ['75'], tags: ['Maintenance'], visibility: 'visible', status: 'completed' },
      { title: 'Système', departments: ['75'], visibility: 'visible', isSystem: true },
    ])
    .returning();
  for (const row of rows) lots[row.title] = row.id;
  await ctx.db.insert(missions).values([
    { title: 'M1', batchId: lots['Paris Est']!, defibrillatorModel: 'Zoll AED Plus', department: '75', status: 'active' },
    { title: 'M2', batchId: lots['Paris Est']!, defibrillatorModel: 'Philips HeartStart', department: '93', status: 'active' },
    { title: 'M3', batchId: lots['Paris Est']!, defibrillatorModel: 'Zoll AED Plus', department: '75', status: 'active' },
    { title: 'M4', batchId: lots['Lyon Centre']!, defibrillatorModel: null, department: '69', status: 'active' },
  ]);
  await ctx.db.insert(applications).values([
    { batchId: lots['Paris Est']!, technicianId: techA.technician.id, status: 'En attente' },
    { batchId: lots['Paris Est']!, technicianId: techB.technician.id, status: 'Refusé' },
    { batchId: lots['Lyon Centre']!, technicianId: techB.technician.id, status: 'Recruté' },
  ]);
});
afterAll(async () => {
  await ctx.close();
});

describe('GET /api/mission-batches/available-for-application', () => {
  it('lists only visible, not completed, non-system lots with their figures and the total', async () => {
    const response = await as(ctx.app, cookieA)({ method: 'GET', url: `${url}?technicianId=${techA.technician.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-total-count']).toBe('3');
    const body = availableLotSchema.array().parse(response.json());
    expect(titles(body)).toEqual(['Hauts-de-Seine', 'Lyon Centre', 'Paris Est']);
    const parisEst = body.find((l) => l.title === 'Paris Est')!;
    expect(parisEst).toMatchObject({
      price: 960,
      departments: ['75', '93'],
      tags: ['Maintenance', 'Électrodes'],
      deadline: '2026-12-20T18:00:00.000Z',
      defibrillatorCount: 3,
      candidateCount: 2,
      models: ['Philips HeartStart', 'Zoll AED Plus'],
      hasApplied: true,
      isAssigned: false,
    });
    expect(parisEst.missionDepartments.sort()).toEqual(['75', '93']);
    const hds = body.find((l) => l.title === 'Hauts-de-Seine')!;
    expect(hds).toMatchObject({ description: 'Lot de missions de maintenance', price: 720.5, deadline: null, defibrillatorCount: 0, candidateCount: 0, models: [], hasApplied: false });
    expect(body.find((l) => l.title === 'Lyon Centre')).toMatchObject({ isAssigned: true, hasApplied: false, models: [] });
  });

  it("uses the caller's own technician id when none is given", async () => {
    const response = await as(ctx.app, cookieB)({ method: 'GET', url });
    const body = availableLotSchema.array().parse(response.json());
    expect(body.find((l) => l.title === 'Lyon Centre')!.hasApplied).toBe(true);
    expect(body.find((l) => l.title === 'Paris Est')!.hasApplied).toBe(true);
    expect(body.find((l) => l.title === 'Hauts-de-Seine')!.hasApplied).toBe(false);
  });

  it('filters by department, tag and free text (title, description, tags), combined', async () => {
    const get = async (query: string) => {
      const response = await as(ctx.app, cookieA)({ method: 'GET', url: `${url}?${query}` });
      expect(response.statusCode).toBe(200);
      return { titles: titles(availableLotSchema.array().parse(response.json())), total: response.headers['x-total-count'] };
    };
    expect(await get('department=75')).toEqual({ titles: ['Paris Est'], total: '1' });
    expect(await get('department=93')).toEqual({ titles: ['Paris Est'], total: '1' });
    expect(await get('department=13')).toEqual({ titles: [], total: '0' });
    expect(await get('tag=Maintenance')).toEqual({ titles: ['Lyon Centre', 'Paris Est'], total: '2' });
    expect(await get('tag=Contr%C3%B4le')).toEqual({ titles: ['Hauts-de-Seine'], total: '1' });
    expect(await get('search=lyon')).toEqual({ titles: ['Lyon Centre'], total: '1' });
    expect(await get('search=batteries')).toEqual({ titles: ['Lyon Centre'], total: '1' });
    expect(await get('search=%C3%A9lectrodes')).toEqual({ titles: ['Paris Est'], total: '1' });
    expect(await get('search=100%25')).toEqual({ titles: [], total: '0' });
    expect(await get('tag=Maintenance&department=69&search=centre')).toEqual({ titles: ['Lyon Centre'], total: '1' });
    expect(await get('tag=Maintenance&department=92')).toEqual({ titles: [], total: '0' });
  });

  it('pages with limit and offset', async () => {
    const first = await as(ctx.app, cookieA)({ method: 'GET', url: `${url}?limit=2&offset=0` });
    const second = await as(ctx.app, cookieA)({ method: 'GET', url: `${url}?limit=2&offset=2` });
    expect(first.json()).toHaveLength(2);
    expect(second.json()).toHaveLength(1);
    expect(first.headers['x-total-count']).toBe('3');
    const all = [...first.json(), ...second.json()].map((l: Lot) => l.id);
    expect(new Set(all).size).toBe(3);
    expect(second.headers['x-total-count']).toBe('3');
    const past = await as(ctx.app, cookieA)({ method: 'GET', url: `${url}?limit=2&offset=10` });
    expect(past.json()).toEqual([]);
    expect(past.headers['x-total-count']).toBe('3');
    // The limit is written in the statement's text (a literal, for a generic plan): each page size has its own.
    const wider = await as(ctx.app, cookieA)({ method: 'GET', url: `${url}?limit=3` });
    expect(wider.json().map((l: Lot) => l.id)).toEqual(all);
    const narrower = await as(ctx.app, cookieA)({ method: 'GET', url: `${url}?limit=1&offset=1` });
    expect(narrower.json().map((l: Lot) => l.id)).toEqual([all[1]]);
  });

  it('access: 401 anonymous, 404 for another technician id, admin allowed', async () => {
    expect((await as(ctx.app, null)({ method: 'GET', url })).statusCode).toBe(401);
    const other = await as(ctx.app, cookieB)({ method: 'GET', url: `${url}?technicianId=${techA.technician.id}` });
    expect(other.statusCode).toBe(404);
    const admin = await as(ctx.app, cookieAdmin)({ method: 'GET', url: `${url}?technicianId=${techA.technician.id}` });
    expect(admin.statusCode).toBe(200);
    expect(availableLotSchema.array().parse(admin.json()).find((l) => l.title === 'Paris Est')!.hasApplied).toBe(true);
  });

  it('validates the query with French messages', async () => {
    const badId = await as(ctx.app, cookieA)({ method: 'GET', url: `${url}?technicianId=abc` });
    expect(badId.statusCode).toBe(400);
    expect(badId.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: 'Identifiant de technicien invalide' });
    const badLimit = await as(ctx.app, cookieA)({ method: 'GET', url: `${url}?limit=1000` });
    expect(badLimit.statusCode).toBe(400);
    const longSearch = await as(ctx.app, cookieA)({ method: 'GET', url: `${url}?search=${'a'.repeat(201)}` });
    expect(longSearch.statusCode).toBe(400);
    expect(longSearch.json().message).toBe('Recherche trop longue (200 caractères maximum)');
  });
});

describe('GET /api/mission-batches/available-filters', () => {
  it('gives the departments and tags of the open lots only', async () => {
    const response = await as(ctx.app, cookieA)({ method: 'GET', url: '/api/mission-batches/available-filters' });
    expect(response.statusCode).toBe(200);
    const body = lotFiltersSchema.parse(response.json());
    expect(body.departments).toEqual(['69', '75', '92', '93']);
    expect(body.tags.sort()).toEqual(['Contrôle', 'Maintenance', 'Électrodes'].sort());
    expect((await as(ctx.app, null)({ method: 'GET', url: '/api/mission-batches/available-filters' })).statusCode).toBe(401);
  });

  it('follows the lots as they open and close (values kept by the database, decision 036)', async () => {
    const filters = async () =>
      lotFiltersSchema.parse((await as(ctx.app, cookieA)({ method: 'GET', url: '/api/mission-batches/available-filters' })).json());
    // The only open lot of 92 and of « Contrôle » closes: both leave the filters; « Maintenance » stays (Lyon Centre).
    await ctx.db.execute(sql`update mission_batches set status = 'completed' where id = ${lots['Hauts-de-Seine']!}`);
    expect(await filters()).toEqual({ departments: ['69', '75', '93'], tags: ['Maintenance', 'Électrodes'] });
    // A hidden lot shown: its department and its new tag come in; the same tag on two lots is offered once.
    await ctx.db.execute(sql`update mission_batches set visibility = 'visible', tags = array['Batteries', 'Maintenance'], departments = array['01', '75'] where id = ${lots['Invisible 75']!}`);
    expect(await filters()).toEqual({ departments: ['01', '69', '75', '93'], tags: ['Batteries', 'Maintenance', 'Électrodes'] });
    await ctx.db.execute(sql`update mission_batches set status = 'active' where id = ${lots['Hauts-de-Seine']!}`);
    await ctx.db.execute(sql`update mission_batches set visibility = 'invisible', tags = array['Maintenance'], departments = array['75'] where id = ${lots['Invisible 75']!}`);
    expect(await filters()).toEqual({ departments: ['69', '75', '92', '93'], tags: ['Contrôle', 'Maintenance', 'Électrodes'] });
  });
});

describe('scale', () => {
  it('answers one page out of 10 000 lots, never the whole table', async () => {
    await ctx.db.execute(sql`
      insert into mission_batches (title, price_cents, departments, tags, visibility, created_at)
      select 'Lot ' || g, 10000, array[case when g % 2 = 0 then '33' else '13' end], array['Masse'], 'visible', now() - (g || ' seconds')::interval
      from generate_series(1, 10000) g`);
    await ctx.db.execute(sql`
      insert into missions (title, batch_id, defibrillator_model, status)
      select 'M', id, 'Zoll', 'active' from mission_batches where title like 'Lot %' limit 2000`);
    const started = Date.now();
    const response = await as(ctx.app, cookieA)({ method: 'GET', url: `${url}?tag=Masse&department=33&limit=20&offset=40` });
    const elapsed = Date.now() - started;
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-total-count']).toBe('5000');
    const body = availableLotSchema.array().parse(response.json());
    expect(body).toHaveLength(20);
    expect(body.every((l) => l.departments[0] === '33')).toBe(true);
    const unfiltered = await as(ctx.app, cookieA)({ method: 'GET', url });
    expect(unfiltered.json()).toHaveLength(20);
    expect(Number(unfiltered.headers['x-total-count'])).toBe(10_003);
    expect(elapsed).toBeLessThan(5000);
  });

  it('puts at most MAP_LOTS_MAX markers on the map and counts the others (decision 036)', async () => {
    // 1 200 of those lots placed around Bordeaux, the others without a position.
    await ctx.db.execute(sql`
      update mission_batches set geo_lat = 44.8 + (n % 100) / 1000.0, geo_lon = -0.6 + (n / 100) / 1000.0, geo_site_count = 1, geo_approximate_count = 0
      from (select id, row_number() over (order by id) as n from mission_batches where title like 'Lot %') placed
      where mission_batches.id = placed.id and placed.n <= 1200`);
    const response = await as(ctx.app, cookieA)({ method: 'GET', url: `${url}/map?tag=Masse` });
    expect(response.statusCode).toBe(200);
    const map = availableLotsMapSchema.parse(response.json());
    expect(map.lots).toHaveLength(MAP_LOTS_MAX);
    expect(new Set(map.lots.map((l) => l.id)).size).toBe(MAP_LOTS_MAX);
    expect(map).toMatchObject({ total: 1200, unlocated: 8800 });
    const department = availableLotsMapSchema.parse((await as(ctx.app, cookieA)({ method: 'GET', url: `${url}/map?tag=Masse&department=33` })).json());
    expect(department.total + department.unlocated).toBe(5000);
    expect(department.lots.length).toBe(Math.min(MAP_LOTS_MAX, department.total));
  });
});
