import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAP_GROUPS_ABOVE, MAP_MISSIONS_MAX, missionsMapSchema } from '@maillon/common/schemas/admin-missions';
import { eq, sql } from 'drizzle-orm';
import { missionBatches, missions } from '../../db/schema';
import { backfillPositions } from '../../lib/positions';
import { unlocatedCounts } from './missions-map.service';
import { as, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';

/** The admin's map of « À trier » and of the active lots (issue 18). */

let ctx: TestContext;
let cookieAdmin: string;
let cookieTech: string;
const lots: Record<string, string> = {};

beforeAll(async () => {
  ctx = await createTestContext();
  const admin = await createAdmin(ctx.db);
  const tech = await createTechnician(ctx.db);
  [cookieAdmin, cookieTech] = await Promise.all([login(ctx.app, admin.email), login(ctx.app, tech.technician.email)]);
  const rows = await ctx.db
    .insert(missionBatches)
    .values([
      { title: 'Lot Lyon', visibility: 'visible' },
      { title: 'Lot terminé', status: 'completed' },
      { title: 'Système', isSystem: true },
    ])
    .returning();
  for (const row of rows) lots[row.title] = row.id;
  await ctx.db.insert(missions).values([
    { title: 'À trier Lyon', status: 'active', latitude: 45.76, longitude: 4.84 },
    { title: 'À trier Villeurbanne (code postal)', status: 'draft', postalCode: '69100', city: 'Villeurbanne' },
    { title: 'À trier Paris', status: 'active', latitude: 48.86, longitude: 2.35 },
    { title: 'À trier sans position', status: 'active' },
    { title: 'Annulée sans lot', status: 'cancelled', latitude: 45.7, longitude: 4.8 },
    { title: 'Dans le lot Lyon', status: 'active', batchId: lots['Lot Lyon'], latitude: 45.75, longitude: 4.85 },
    { title: 'Dans le lot terminé', status: 'completed', batchId: lots['Lot terminé'], latitude: 45.74, longitude: 4.86 },
    { title: 'Dans le lot système', status: 'cancelled', batchId: lots['Système'], latitude: 45.73, longitude: 4.87 },
  ]);
  await backfillPositions(ctx.db);
});
afterAll(async () => {
  await ctx.close();
});

async function map(query: string) {
  const response = await as(ctx.app, cookieAdmin)({ method: 'GET', url: `/api/missions/map${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return missionsMapSchema.parse(response.json());
}

describe('GET /api/missions/map', () => {
  it('gives « À trier » first, then the missions of the active lots, with their lots for the legend', async () => {
    const all = await map('');
    expect(all.missions).toHaveLength(4);
    expect(all.missions.slice(0, 3).map((m) => m.title).sort()).toEqual(['À trier Lyon', 'À trier Paris', 'À trier Villeurbanne (code postal)']);
    expect(all.missions[3]).toMatchObject({ title: 'Dans le lot Lyon', batchId: lots['Lot Lyon'], approximate: false });
    expect(all.missions.find((m) => m.title.includes('Villeurbanne'))).toMatchObject({ lat: 45.771, lon: 4.88907, approximate: true, batchId: null, status: 'draft' });
    expect(all.lots).toEqual([{ id: lots['Lot Lyon'], title: 'Lot Lyon', defibrillatorsSum: 0 }]);
    expect(all.more).toBe(false);
    expect(all.unlocatedUnsorted).toBe(1);
  });

  it('counts the « À trier » that cannot be placed on their own index, whose condition is the count’s (decision 075)', async () => {
    const plan = await ctx.db.transaction(async (tx) => {
      // Without a table or bitmap scan to fall back on, an index whose condition the count does not match is not used.
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local enable_bitmapscan = off`);
      const rows = (await tx.execute<{ 'QUERY PLAN': unknown }>(sql`explain (format json) select * from ${unlocatedCounts}`)).rows;
      return JSON.stringify(rows[0]!['QUERY PLAN']);
    });
    expect(plan).toContain('"Index Name":"missions_unsorted_unlocated_idx"');
    expect(plan).not.toContain('missions_unbatched_idx');
  });

  it('keeps the view (south, west, north, east) and the « À trier » scope', async () => {
    const lyon = await map('?south=45.5&west=4.5&north=46&east=5.2');
    expect(lyon.missions.map((m) => m.title).sort()).toEqual(['Dans le lot Lyon', 'À trier Lyon', 'À trier Villeurbanne (code postal)']);
    const unsorted = await map('?south=45.5&west=4.5&north=46&east=5.2&scope=unsorted');
    expect(unsorted.missions.map((m) => m.title).sort()).toEqual(['À trier Lyon', 'À trier Villeurbanne (code postal)']);
    expect(unsorted.lots).toEqual([]);
  });

  it('gives the lots of a view nearest its centre first, and follows a lot renamed while the answer is kept', async () => {
    // A title JSON must escape (the statement writes each marker): quotes, a backslash, a tab, a control character.
    const awkward = 'Dans le lot Lyon, « loin » "B" \\ \t \u0001';
    await ctx.db.insert(missions).values({ title: awkward, status: 'active', batchId: lots['Lot Lyon'], latitude: 45.95, longitude: 5.1512345678 });
    const view = '?south=45.5&west=4.5&north=46&east=5.2';
    const before = await map(view);
    expect(before.missions.filter((m) => m.batchId).map((m) => m.title)).toEqual(['Dans le lot Lyon', awkward]);
    expect(before.missions.at(-1)).toMatchObject({ lat: 45.95, lon: 5.151235, approximate: false, batchId: lots['Lot Lyon'], status: 'active' });
    // The lots part is read by a function whose text names no table: the answer must still depend on the lots.
    await ctx.db.update(missionBatches).set({ title: 'Lot Lyon Est' }).where(eq(missionBatches.id, lots['Lot Lyon']!));
    expect((await map(view)).lots).toEqual([{ id: lots['Lot Lyon'], title: 'Lot Lyon Est', defibrillatorsSum: 0 }]);
    expect((await map('')).lots).toEqual([{ id: lots['Lot Lyon'], title: 'Lot Lyon Est', defibrillatorsSum: 0 }]);
  });

  it('draws a wide view holding more than MAP_MISSIONS_MAX missions in groups, and a small one mission by mission, nearest first, with « more »', async () => {
    // A lot of MAP_MISSIONS_MAX + 1 missions packed in 0.03° × 0.025° south-west of Lyon's centre.
    const [big] = await ctx.db.insert(missionBatches).values({ title: 'Grand lot' }).returning();
    await ctx.db.insert(missions).values(
      Array.from({ length: MAP_MISSIONS_MAX + 1 }, (_, i) => ({ title: `Grand ${i}`, status: 'active' as const, batchId: big!.id, latitude: 45.7 + (i % 60) / 2000, longitude: 4.8 + Math.floor(i / 60) / 2000 })),
    );
    // The whole map: groups of 1° cells. Every mission on the map is in one, « À trier » counted apart.
    const all = await map('');
    expect(all.missions).toEqual([]);
    expect(all.lots).toEqual([]);
    expect(all.more).toBe(false);
    expect(all.unlocatedUnsorted).toBe(1);
    const onMap = MAP_MISSIONS_MAX + 1 + 2 + 3; // the big lot, two missions of « Lot Lyon », three placed « À trier »
    expect(all.clusters.reduce((sum, c) => sum + c.count, 0)).toBe(onMap);
    expect(all.clusters.reduce((sum, c) => sum + c.unsorted, 0)).toBe(3);
    // A group opens onto its missions' spread within its cell: one mission, a few hundred metres around it.
    const paris = all.clusters.find((c) => Math.floor(c.lat) === 48 && Math.floor(c.lon) === 2);
    expect(paris).toMatchObject({ count: 1, unsorted: 1, lat: 48.86, lon: 2.35 });
    expect(paris!.north - paris!.south).toBeCloseTo(1 / 512, 5);
    expect(paris!.east - paris!.west).toBeCloseTo(1 / 512, 5);
    // Lyon's: the big lot (0.03° × 0.025°) and three missions a few kilometres away, far less than its 1° cell.
    const lyon1 = all.clusters.find((c) => Math.floor(c.lat) === 45 && Math.floor(c.lon) === 4)!;
    expect(lyon1.count).toBe(MAP_MISSIONS_MAX + 1 + 3);
    expect(lyon1.north - lyon1.south).toBeLessThan(0.1);
    expect(lyon1.east - lyon1.west).toBeLessThan(0.1);
    for (const c of all.clusters) {
      expect([Math.floor(c.south), Math.floor(c.west)]).toEqual([Math.floor(c.lat), Math.floor(c.lon)]);
      expect(c.north).toBeLessThanOrEqual(Math.floor(c.lat) + 1);
      expect(c.east).toBeLessThanOrEqual(Math.floor(c.lon) + 1);
      expect(c.lat).toBeGreaterThanOrEqual(c.south);
      expect(c.lat).toBeLessThanOrEqual(c.north);
      expect(c.lon).toBeGreaterThanOrEqual(c.west);
      expect(c.lon).toBeLessThanOrEqual(c.east);
    }
    // « À trier » only: three missions, drawn one by one.
    const unsortedOnly = await map('?scope=unsorted');
    expect(unsortedOnly.clusters).toEqual([]);
    expect(unsortedOnly.missions.map((m) => m.title).sort()).toEqual([
      'À trier Lyon',
      'À trier Paris',
      'À trier Villeurbanne (code postal)',
    ]);
    // Around Lyon (0.7° wide): cells of 1/16°, eleven across.
    const lyon = await map('?south=45.5&west=4.5&north=46&east=5.2');
    expect(lyon.missions).toEqual([]);
    expect(lyon.clusters.reduce((sum, c) => sum + c.count, 0)).toBe(MAP_MISSIONS_MAX + 1 + 2 + 2);
    for (const c of lyon.clusters) {
      expect([Math.floor(c.south * 16), Math.floor(c.west * 16)]).toEqual([Math.floor(c.lat * 16), Math.floor(c.lon * 16)]);
      expect(c.north - c.south).toBeLessThanOrEqual(1 / 16);
    }
    // A view of 0.05° (three cells of the finest level across): the missions one by one, « À trier » first, then the
    // lots' missions by distance from the view's centre (45.715, 4.815).
    const small = await map('?south=45.69&west=4.79&north=45.74&east=4.84');
    expect(small.clusters).toEqual([]);
    expect(small.missions).toHaveLength(MAP_MISSIONS_MAX);
    expect(small.more).toBe(true);
    const distance = (m: { lat: number; lon: number }) => Math.hypot(m.lat - 45.715, m.lon - 4.815);
    const inLots = small.missions.map(distance);
    // Positions are rounded to 6 decimals, so equally distant missions may come in either order.
    expect(inLots.findIndex((d, i) => i > 0 && d < inLots[i - 1]! - 1e-5)).toBe(-1);
    expect(inLots[0]!).toBeLessThan(0.001);
    // A lot completed leaves the groups at once; a smaller total is drawn mission by mission again.
    await ctx.db.update(missionBatches).set({ status: 'completed' }).where(eq(missionBatches.id, big!.id));
    const after = await map('');
    expect(after.clusters).toEqual([]);
    expect(after.missions).toHaveLength(5);
    expect(after.more).toBe(false);
  });

  it('draws up to MAP_GROUPS_ABOVE « À trier » over France one by one, and one more in groups (decision 053)', async () => {
    const before = await map('?scope=unsorted');
    expect(before.clusters).toEqual([]);
    const placed = before.missions.length;
    // Spread over Brittany and the Loire (about 2° × 3°): as many as the map still draws one by one.
    const spreadOut = (n: number, from: number) =>
      Array.from({ length: n }, (_, i) => ({ title: `Bretagne ${from + i}`, status: (i % 4 ? 'active' : 'draft') as 'active' | 'draft', latitude: 47 + ((from + i) % 40) / 20, longitude: -4 + Math.floor((from + i) / 40) / 10 }));
    await ctx.db.insert(missions).values(spreadOut(MAP_GROUPS_ABOVE - placed, 0));
    const atMost = await map('?scope=unsorted');
    expect(atMost.clusters).toEqual([]);
    expect(atMost.missions).toHaveLength(MAP_GROUPS_ABOVE);
    expect(atMost.more).toBe(false);
    await ctx.db.insert(missions).values(spreadOut(1, MAP_GROUPS_ABOVE));
    const grouped = await map('?scope=unsorted');
    expect(grouped.missions).toEqual([]);
    expect(grouped.lots).toEqual([]);
    expect(grouped.clusters.reduce((sum, c) => sum + c.count, 0)).toBe(MAP_GROUPS_ABOVE + 1);
    expect(grouped.clusters.every((c) => c.unsorted === c.count)).toBe(true);
    // A view as narrow as three sectors of the finest grid still draws its missions one by one.
    const narrow = await map('?scope=unsorted&south=46.99&west=-4.01&north=47.03&east=-3.97');
    expect(narrow.clusters).toEqual([]);
    expect(narrow.missions.length).toBeGreaterThan(0);
    await ctx.db.delete(missions).where(sql`${missions.title} like 'Bretagne %'`);
    expect((await map('?scope=unsorted')).missions).toHaveLength(placed);
  });

  it('validates the view in French and is for the admin only', async () => {
    const half = await as(ctx.app, cookieAdmin)({ method: 'GET', url: '/api/missions/map?south=45' });
    expect(half.statusCode).toBe(400);
    expect(half.json().message).toBe('La zone doit avoir ses quatre bords');
    const upside = await as(ctx.app, cookieAdmin)({ method: 'GET', url: '/api/missions/map?south=46&west=4&north=45&east=5' });
    expect(upside.statusCode).toBe(400);
    expect(upside.json().message).toBe('Zone invalide');
    const bad = await as(ctx.app, cookieAdmin)({ method: 'GET', url: '/api/missions/map?south=abc&west=4&north=45&east=5' });
    expect(bad.statusCode).toBe(400);
    expect((await as(ctx.app, cookieTech)({ method: 'GET', url: '/api/missions/map' })).statusCode).toBe(403);
    expect((await as(ctx.app, null)({ method: 'GET', url: '/api/missions/map' })).statusCode).toBe(401);
  });
});
