import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { missionBatches, missionMapCells, missions } from '../../db/schema';
import { rowsOf } from '../../lib/change-feed/triggers';
import { createTestContext, runConcurrently, type TestContext } from '../../../test/helpers';

/**
 * The admin map's cells (decision 041, migration 0034): kept by triggers on missions and lots, they must always equal
 * the cells counted here, in JavaScript, from the missions and lots themselves.
 */

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({}, { poolSize: 8 });
});
afterAll(async () => {
  await ctx.close();
});

interface Cell {
  n: number;
  latSum: number;
  lonSum: number;
  latSqSum: number;
  lonSqSum: number;
}

/** The cells as the map should see them: every placed mission « À trier » or of an active lot, at levels 0 to 8. */
async function expectedCells(): Promise<Map<string, Cell>> {
  const lots = new Map(
    (
      await ctx.db
        .select({ id: missionBatches.id, status: missionBatches.status, isSystem: missionBatches.isSystem })
        .from(missionBatches)
    ).map((l) => [l.id, l]),
  );
  const rows = await ctx.db
    .select({
      lat: missions.latitude,
      lon: missions.longitude,
      approxLat: missions.approxLatitude,
      approxLon: missions.approxLongitude,
      batchId: missions.batchId,
      status: missions.status,
    })
    .from(missions);
  const cells = new Map<string, Cell>();
  for (const row of rows) {
    const lat = row.lat ?? row.approxLat;
    const lon = row.lon ?? row.approxLon;
    if (lat === null || lon === null) continue;
    const lot = row.batchId ? lots.get(row.batchId) : undefined;
    const shown =
      row.batchId === null ? row.status === 'draft' || row.status === 'active' : lot?.status === 'active' && !lot.isSystem;
    if (!shown) continue;
    const kind = row.batchId === null ? 'unsorted' : 'lot';
    for (let level = 0; level <= 8; level++) {
      const key = `${level}/${kind}/${Math.floor((lat * 2 ** level) / 4)}/${Math.floor((lon * 2 ** level) / 4)}`;
      const cell = cells.get(key) ?? { n: 0, latSum: 0, lonSum: 0, latSqSum: 0, lonSqSum: 0 };
      cells.set(key, { n: cell.n + 1, latSum: cell.latSum + lat, lonSum: cell.lonSum + lon, latSqSum: cell.latSqSum + lat * lat, lonSqSum: cell.lonSqSum + lon * lon });
    }
  }
  return cells;
}

/** Compares the kept cells (empty ones left out) with the expected ones; returns how many there are. */
async function expectCellsExact(): Promise<number> {
  const expected = await expectedCells();
  const kept = await ctx.db.select().from(missionMapCells);
  const nonEmpty = kept.filter((c) => c.n !== 0);
  expect(Object.fromEntries(nonEmpty.map((c) => [`${c.level}/${c.kind}/${c.y}/${c.x}`, c.n]))).toEqual(
    Object.fromEntries([...expected].map(([k, c]) => [k, c.n])),
  );
  for (const cell of nonEmpty) {
    const want = expected.get(`${cell.level}/${cell.kind}/${cell.y}/${cell.x}`)!;
    expect(cell.latSum).toBeCloseTo(want.latSum, 9);
    expect(cell.lonSum).toBeCloseTo(want.lonSum, 9);
    expect(cell.latSqSum).toBeCloseTo(want.latSqSum, 7);
    expect(cell.lonSqSum).toBeCloseTo(want.lonSqSum, 7);
  }
  // A cell back to zero keeps no sum left over.
  for (const cell of kept.filter((c) => c.n === 0)) expect([cell.latSum, cell.lonSum, cell.latSqSum, cell.lonSqSum]).toEqual([0, 0, 0, 0]);
  return nonEmpty.length;
}

describe('mission_map_cells, kept by triggers', () => {
  it('follows missions written, moved, placed, taken out of the map and deleted', async () => {
    const [active, completed, system] = await ctx.db
      .insert(missionBatches)
      .values([
        { title: 'Cellules actif', status: 'active' },
        { title: 'Cellules terminé', status: 'completed' },
        { title: 'Cellules système', isSystem: true },
      ])
      .returning();
    const inserted = await ctx.db
      .insert(missions)
      .values([
        { title: 'Brouillon Lyon', status: 'draft', latitude: 45.76, longitude: 4.84 },
        { title: 'Active Paris', status: 'active', latitude: 48.86, longitude: 2.35 },
        { title: 'Annulée', status: 'cancelled', latitude: 45.7, longitude: 4.8 },
        { title: 'Sans position', status: 'active' },
        { title: 'Par code postal', status: 'active', approxLatitude: 43.6, approxLongitude: 1.44 },
        { title: 'Ouest de Greenwich', status: 'active', latitude: 47.2, longitude: -1.55 },
        { title: 'Lot actif', status: 'completed', batchId: active!.id, latitude: 45.75, longitude: 4.85 },
        { title: 'Lot terminé', status: 'active', batchId: completed!.id, latitude: 45.74, longitude: 4.86 },
        { title: 'Lot système', status: 'active', batchId: system!.id, latitude: 45.73, longitude: 4.87 },
      ])
      .returning({ id: missions.id, title: missions.title });
    const id = (title: string) => inserted.find((m) => m.title === title)!.id;
    // Five on the map (four « À trier », one of them placed by its postal code, and the active lot's), nine cells each.
    expect(await expectCellsExact()).toBe(5 * 9);

    await ctx.db
      .update(missions)
      .set({ latitude: 45.7601, longitude: 4.8401 })
      .where(eq(missions.id, id('Brouillon Lyon')));
    await expectCellsExact();
    await ctx.db
      .update(missions)
      .set({ latitude: 43.3, longitude: 5.37 })
      .where(eq(missions.id, id('Brouillon Lyon')));
    await expectCellsExact();
    await ctx.db
      .update(missions)
      .set({ latitude: 48.1, longitude: -1.68 })
      .where(eq(missions.id, id('Sans position')));
    await ctx.db
      .update(missions)
      .set({ approxLatitude: 43.61, approxLongitude: 1.45 })
      .where(eq(missions.id, id('Par code postal')));
    await ctx.db
      .update(missions)
      .set({ status: 'cancelled' })
      .where(eq(missions.id, id('Active Paris')));
    await ctx.db
      .update(missions)
      .set({ status: 'active' })
      .where(eq(missions.id, id('Annulée')));
    await expectCellsExact();
    // Into and out of lots, several at once.
    await ctx.db
      .update(missions)
      .set({ batchId: active!.id })
      .where(inArray(missions.id, [id('Annulée'), id('Sans position'), id('Lot terminé')]));
    await ctx.db
      .update(missions)
      .set({ batchId: null })
      .where(eq(missions.id, id('Lot système')));
    await expectCellsExact();
    // A write that changes nothing the map shows.
    await ctx.db
      .update(missions)
      .set({ title: 'Renommée' })
      .where(eq(missions.id, id('Lot actif')));
    await ctx.db.delete(missions).where(inArray(missions.id, [id('Par code postal'), id('Ouest de Greenwich'), id('Lot actif')]));
    await expectCellsExact();
  });

  it('follows a lot completed, made active again, and deleted (its missions back « À trier »)', async () => {
    const [lot] = await ctx.db.insert(missionBatches).values({ title: 'Cellules bascule', status: 'active' }).returning();
    await ctx.db.insert(missions).values([
      { title: 'Bascule brouillon', status: 'draft', batchId: lot!.id, latitude: 44.84, longitude: -0.58 },
      { title: 'Bascule terminée', status: 'completed', batchId: lot!.id, latitude: 44.85, longitude: -0.57 },
      { title: 'Bascule sans position', status: 'active', batchId: lot!.id },
    ]);
    await expectCellsExact();
    await ctx.db.update(missionBatches).set({ status: 'completed' }).where(eq(missionBatches.id, lot!.id));
    await expectCellsExact();
    await ctx.db.update(missionBatches).set({ status: 'active' }).where(eq(missionBatches.id, lot!.id));
    await expectCellsExact();
    await ctx.db.delete(missionBatches).where(eq(missionBatches.id, lot!.id));
    // The draft one is « À trier » now; the completed one without a lot leaves the map.
    const cells = await expectCellsExact();
    expect(cells).toBeGreaterThan(0);
  });

  it('takes a rolled-back write back, equals a recount, and empties with a truncated table', async () => {
    const before = await expectCellsExact();
    await expect(
      ctx.db.transaction(async (tx) => {
        await tx.insert(missions).values({ title: 'Annulée par rollback', status: 'active', latitude: 42.7, longitude: 2.9 });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await expectCellsExact()).toBe(before);
    const kept = await ctx.db.select().from(missionMapCells);
    await ctx.db.execute(sql`select maillon_recount_map_cells()`);
    const recounted = await ctx.db.select().from(missionMapCells);
    const key = (c: (typeof kept)[number]) => `${c.level}/${c.kind}/${c.y}/${c.x}`;
    expect(Object.fromEntries(recounted.map((c) => [key(c), c.n]))).toEqual(
      Object.fromEntries(kept.filter((c) => c.n !== 0).map((c) => [key(c), c.n])),
    );
    await ctx.db.execute(sql`truncate table missions cascade`);
    expect(rowsOf(await ctx.db.execute(sql`select * from mission_map_cells`))).toEqual([]);
  });

  it('stays exact when lots change state while their missions are written (several connections on PostgreSQL)', async () => {
    const lots = await ctx.db
      .insert(missionBatches)
      .values(Array.from({ length: 4 }, (_, i) => ({ title: `Course ${i}`, status: 'active' as const })))
      .returning({ id: missionBatches.id });
    const seeded = await ctx.db
      .insert(missions)
      .values(
        Array.from({ length: 40 }, (_, i) => ({
          title: `Course ${i}`,
          status: 'active' as const,
          batchId: i % 3 ? lots[i % 4]!.id : null,
          latitude: 45 + i / 50,
          longitude: 3 + i / 40,
        })),
      )
      .returning({ id: missions.id });
    // 40 writes, 8 at a time on the pool's 8 connections: missions moved between lots and out of them, moved on the
    // map, inserted into lots and deleted, while the lots are completed and reopened, some of it rolled back. Each in a
    // transaction, as the services write: two of them may lock lots and cells in opposite orders, and the database
    // layer runs a transaction PostgreSQL stopped for a deadlock again (retry-transactions.ts).
    const write = async ({ id }: { id: string }, i: number) => {
      const lot = lots[(i * 7) % 4]!.id;
      const kind = i % 6;
      await ctx.db
        .transaction(async (tx) => {
          if (kind === 0)
            await tx
              .update(missions)
              .set({ batchId: i % 2 ? null : lot })
              .where(eq(missions.id, id));
          else if (kind === 1)
            await tx
              .update(missionBatches)
              .set({ status: i % 2 ? 'completed' : 'active' })
              .where(eq(missionBatches.id, lot));
          else if (kind === 2)
            await tx
              .update(missions)
              .set({ latitude: 44 + i / 30, longitude: 5 - i / 60 })
              .where(eq(missions.id, id));
          else if (kind === 3)
            await tx
              .insert(missions)
              .values({ title: `Nouvelle ${i}`, status: 'active', batchId: lot, latitude: 46, longitude: 2 + i / 100 });
          else if (kind === 4) await tx.delete(missions).where(eq(missions.id, id));
          else {
            await tx.update(missionBatches).set({ status: 'completed' }).where(eq(missionBatches.id, lot));
            await tx.update(missions).set({ batchId: lot }).where(eq(missions.id, id));
            throw new Error('rollback');
          }
        })
        .catch((error: unknown) => {
          if (kind !== 5) throw error;
        });
    };
    await runConcurrently(seeded.map((mission, i) => () => write(mission, i)), 8);
    await expectCellsExact();
  });
});
