import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEFAULT_LOT_DESCRIPTION } from '@maillon/common/constants';
import { centsToEuros } from '@maillon/common/format';
import { availableLotSchema } from '@maillon/common/schemas/lots';
import { isoTime, lotDescription } from '../../../test/lot-json';
import { eq, inArray, sql } from 'drizzle-orm';
import { applications, missionBatches, missions } from '../../db/schema';
import type { Db } from '../../db/client';
import { rowsOf } from '../../lib/change-feed/triggers';
import { refreshLotsGeometry } from '../../lib/positions';
import { as, createTechnician, login, type TestContext, withAdminApp } from '../../../test/helpers';

/**
 * What a lot keeps for the lists (migration 0017, docs/decisions/030): its missions' count, models and departments, its
 * applications' count and whether one is recruited, kept by triggers; and lot_sites, the open lots' sites on the unit
 * sphere. Every kind of write is checked against the same figures computed from the rows.
 */

let ctx: TestContext;
let admin: ReturnType<typeof as>;
withAdminApp((app) => ({ ctx, admin } = app), {}, { poolSize: 8 });

interface Figures {
  missionCount: number;
  models: string[];
  departments: string[];
  applicationCount: number;
  hasRecruit: boolean;
}

/** Each lot's kept figures, and the same recomputed from missions and applications. */
async function keptAndRecomputed(db: Db): Promise<{ kept: Record<string, Figures>; recomputed: Record<string, Figures> }> {
  const kept = rowsOf<{ id: string; n: number; models: string[]; departments: string[]; a: number; r: boolean }>(
    await db.execute(sql`
      select id, mission_count as n, mission_models as models, mission_departments as departments, application_count as a, has_recruit as r
      from mission_batches`),
  );
  const recomputed = rowsOf<{ id: string; n: string | number; models: string[]; departments: string[]; a: string | number; r: boolean }>(
    await db.execute(sql`
      select b.id,
        (select count(*) from missions m where m.batch_id = b.id) as n,
        (select coalesce(array_agg(distinct m.defibrillator_model order by m.defibrillator_model), '{}') from missions m
          where m.batch_id = b.id and coalesce(m.defibrillator_model, '') <> '') as models,
        (select coalesce(array_agg(distinct m.department order by m.department), '{}') from missions m
          where m.batch_id = b.id and coalesce(m.department, '') <> '') as departments,
        (select count(*) from applications a where a.batch_id = b.id) as a,
        exists (select 1 from applications a where a.batch_id = b.id and a.status in ('Recruté', 'Terminé')) as r
      from mission_batches b`),
  );
  const byId = <T extends { id: string }>(rows: T[], f: (row: T) => Figures) => Object.fromEntries(rows.map((row) => [row.id, f(row)]));
  return {
    kept: byId(kept, (r) => ({ missionCount: Number(r.n), models: r.models, departments: r.departments, applicationCount: Number(r.a), hasRecruit: r.r })),
    recomputed: byId(recomputed, (r) => ({ missionCount: Number(r.n), models: r.models, departments: r.departments, applicationCount: Number(r.a), hasRecruit: r.r })),
  };
}

/**
 * What the lists show of a lot but for what depends on the reader, written here in JavaScript from its columns as the
 * server wrote it before migration 0022: the reference for the list_json the trigger writes.
 */
function expectedListJson(b: typeof missionBatches.$inferSelect) {
  return {
    id: b.id,
    title: b.title,
    description: lotDescription(b.description),
    price: centsToEuros(b.priceCents),
    departments: b.departments,
    tags: b.tags,
    deadline: isoTime(b.deadline),
    defibrillatorCount: b.missionCount,
    candidateCount: b.applicationCount,
    missionDepartments: b.missionDepartments,
    isAssigned: b.hasRecruit,
    createdAt: b.createdAt.toISOString(),
    position: b.geoSiteCount > 0 && b.geoLat !== null && b.geoLon !== null ? { lat: b.geoLat, lon: b.geoLon, approximate: b.geoApproximateCount >= b.geoSiteCount } : null,
  };
}

async function expectFiguresExact(db: Db = ctx.db): Promise<Record<string, Figures>> {
  const { kept, recomputed } = await keptAndRecomputed(db);
  expect(kept).toEqual(recomputed);
  // The list's JSON each lot keeps (migrations 0020, 0022) says what its row says, figures included.
  const rows = await db.select().from(missionBatches);
  for (const row of rows) {
    expect(JSON.parse(row.listJson), row.title).toEqual(expectedListJson(row));
    expect(JSON.parse(row.listSites), row.title).toEqual([row.geoSiteLats, row.geoSiteLons]);
  }
  return kept;
}

/** lot_sites as it is, and as it should be from the lots (open lots' sites × departments, '' for a lot without one). */
async function expectSitesExact(db: Db = ctx.db): Promise<number> {
  const kept = rowsOf<{ k: string }>(
    await db.execute(sql`select batch_id || '|' || department || '|' || created_at::text || '|' || site::text as k from lot_sites order by 1`),
  ).map((r) => r.k);
  const expected = rowsOf<{ k: string }>(
    await db.execute(sql`
      select b.id || '|' || d.department || '|' || b.created_at::text || '|' || maillon_unit_point(s.lat, s.lon)::text as k
      from mission_batches b
      cross join lateral unnest(b.geo_site_lats, b.geo_site_lons) s(lat, lon)
      cross join lateral (select distinct department from unnest(case when cardinality(b.departments) = 0 then array[''] else b.departments end) department) d
      where b.visibility = 'visible' and b.status <> 'completed' and not b.is_system
      order by 1`),
  ).map((r) => r.k);
  expect(kept).toEqual(expected);
  return kept.length;
}

/**
 * The open lots of each department (migration 0019) or tag (migration 0024) kept in row_counts, against a count over
 * the lots.
 */
async function expectOpenLotCountsExact(column: 'departments' | 'tags', db: Db = ctx.db): Promise<Record<string, number>> {
  const kept = Object.fromEntries(
    rowsOf<{ key: string; n: string | number }>(await db.execute(sql`select key, n from row_counts where table_name = ${`open_lot_${column}`} and n <> 0`)).map(
      (r) => [r.key, Number(r.n)],
    ),
  );
  const counted = Object.fromEntries(
    rowsOf<{ k: string; n: string | number }>(
      await db.execute(sql`
        select d.k, count(*) as n from mission_batches r cross join lateral (select distinct k from unnest(r.${sql.raw(column)}) k) d
        where r.visibility = 'visible' and r.status <> 'completed' and not r.is_system group by 1`),
    ).map((r) => [r.k, Number(r.n)]),
  );
  expect(kept).toEqual(counted);
  return kept;
}

const expectDepartmentCountsExact = () => expectOpenLotCountsExact('departments');

/**
 * The map's markers kept in lot_markers (migrations 0024, 0025) against the open lots with a located site read through
 * the query builder: the marker's JSON, its filters, and its point (maillon_unit_point of the lot's mean point).
 */
async function expectMarkersExact(db: Db = ctx.db): Promise<number> {
  const kept = rowsOf<{ batch_id: string; marker: string; departments: string[]; tags: string[]; same_point: boolean }>(
    await db.execute(sql`
      select m.batch_id, m.marker, m.departments, m.tags, m.point = maillon_unit_point(b.geo_lat, b.geo_lon) as same_point
      from lot_markers m join mission_batches b on b.id = m.batch_id order by m.batch_id`),
  );
  const lots = await db.select().from(missionBatches).orderBy(missionBatches.id);
  const open = lots.filter((b) => b.visibility === 'visible' && b.status !== 'completed' && !b.isSystem && b.geoSiteCount > 0);
  // The marker's text itself: compact JSON, the position to 6 decimals (migration 0025), as JSON.stringify writes it.
  const sixDecimals = (x: number | null) => (x === null ? null : Number(x.toFixed(6)));
  expect(kept.map((k) => ({ marker: k.marker, departments: k.departments, tags: k.tags, samePoint: k.same_point }))).toEqual(
    open.map((b) => ({
      marker: JSON.stringify({ id: b.id, title: b.title, lat: sixDecimals(b.geoLat), lon: sixDecimals(b.geoLon), approximate: b.geoApproximateCount >= b.geoSiteCount }),
      departments: b.departments,
      tags: b.tags,
      samePoint: true,
    })),
  );
  return kept.length;
}

const missionPayload = { title: 'Maintenance', description: 'd', location: '3 place Bellecour, 69002 Lyon', department: '69', budget: '10', deadline: '2027-03-01' };

describe('lot figures kept by triggers', () => {
  it('has the triggers on missions, applications and mission_batches, and nowhere else', async () => {
    const rows = rowsOf<{ name: string }>(
      await ctx.db.execute(sql`
        select c.relname || '.' || t.tgname as name from pg_trigger t join pg_class c on c.oid = t.tgrelid
        where t.tgname like 'maillon_lot_%' order by 1`),
    );
    expect(rows.map((r) => r.name)).toEqual([
      'applications.maillon_lot_figures_delete',
      'applications.maillon_lot_figures_insert',
      'applications.maillon_lot_figures_truncate',
      'applications.maillon_lot_figures_update',
      'mission_batches.maillon_lot_list_json',
      'mission_batches.maillon_lot_markers_insert',
      'mission_batches.maillon_lot_markers_update',
      'mission_batches.maillon_lot_sites_insert',
      'mission_batches.maillon_lot_sites_update',
      'missions.maillon_lot_figures_delete',
      'missions.maillon_lot_figures_insert',
      'missions.maillon_lot_figures_truncate',
      'missions.maillon_lot_figures_update',
    ]);
  });

  it('writes the list’s JSON as the server would: blank descriptions, prices, dates, positions, control characters, models in French order', async () => {
    const blank = ' \t\n\u00a0\u2003\ufeff';
    const values = [
      { title: 'Liste « guillemets » "doubles" \\ et \u0001\u001e\u001f contrôle', description: blank, priceCents: 12345, tags: ['Liste JSON'], deadline: new Date('2027-03-04T05:06:07.891Z') },
      { title: 'Liste sans rien', description: null, priceCents: 0, tags: ['Liste JSON'], deadline: null },
      { title: 'Liste avec texte', description: '  Accès par la cour\u2028 ', priceCents: 1800000, tags: ['Liste JSON'], deadline: null },
    ];
    const lots = await ctx.db.insert(missionBatches).values(values.map((v) => ({ ...v, visibility: 'visible' }))).returning();
    // Microseconds in a date: the list shows the milliseconds, as JavaScript's toISOString does.
    await ctx.db.execute(sql`update mission_batches set created_at = '2026-05-06 07:08:09.123987+00' where id = ${lots[0]!.id}`);
    await ctx.db.insert(missions).values(
      ['Zoll AED Plus', 'Défibtech Lifeline', 'cardiac Science', 'Élite'].map((model, i) => ({ title: `Liste ${i}`, batchId: lots[0]!.id, defibrillatorModel: model, latitude: 45.75 + i / 100, longitude: 4.85 })),
    );
    await refreshLotsGeometry(ctx.db, [lots[0]!.id]);
    await expectFiguresExact();

    const technician = await createTechnician(ctx.db);
    const listed = await as(ctx.app, await login(ctx.app, technician.technician.email))({
      method: 'GET',
      url: `/api/mission-batches/available-for-application?technicianId=${technician.technician.id}&tag=Liste%20JSON&sort=recent&limit=10`,
    });
    expect(listed.statusCode).toBe(200);
    expect(listed.headers['content-type']).toBe('application/json; charset=utf-8');
    const page = z.array(availableLotSchema.strict()).parse(listed.json());
    const byTitle = Object.fromEntries(page.map((lot) => [lot.title, lot]));
    expect(page).toHaveLength(3);
    const quoted = byTitle[values[0]!.title]!;
    expect(quoted).toMatchObject({
      description: DEFAULT_LOT_DESCRIPTION,
      price: 123.45,
      deadline: '2027-03-04T05:06:07.891Z',
      createdAt: '2026-05-06T07:08:09.123Z',
      models: ['cardiac Science', 'Défibtech Lifeline', 'Élite', 'Zoll AED Plus'],
      defibrillatorCount: 4,
      hasApplied: false,
      isAssigned: false,
    });
    expect(quoted.position).toEqual({ lat: expect.closeTo(45.765, 9), lon: expect.closeTo(4.85, 9), approximate: false });
    expect(byTitle['Liste sans rien']).toMatchObject({ description: DEFAULT_LOT_DESCRIPTION, price: 0, deadline: null, models: [], position: null, distance: null, roundTrip: null });
    expect(byTitle['Liste avec texte']).toMatchObject({ description: '  Accès par la cour\u2028 ', price: 18000 });
  });

  it('follow missions and applications through the API and the query builder', async () => {
    const [lotA, lotB] = await ctx.db
      .insert(missionBatches)
      .values([
        { title: 'Figures A', visibility: 'visible' },
        { title: 'Figures B', visibility: 'visible' },
      ])
      .returning();
    let kept = await expectFiguresExact();
    expect(kept[lotA!.id]).toEqual({ missionCount: 0, models: [], departments: [], applicationCount: 0, hasRecruit: false });

    // Missions created in a lot through the API, with and without a model; one moved to the other lot.
    const ids: string[] = [];
    for (const [i, model] of ['Zoll AED Plus', 'Philips HeartStart', '', 'Zoll AED Plus'].entries()) {
      const created = await admin({
        method: 'POST',
        url: '/api/missions',
        payload: { ...missionPayload, defibrillatorModel: model || undefined, department: i === 1 ? '01' : '69', batchId: lotA!.id },
      });
      expect(created.statusCode).toBe(201);
      ids.push(created.json().id as string);
    }
    kept = await expectFiguresExact();
    expect(kept[lotA!.id]).toMatchObject({ missionCount: 4, models: ['Philips HeartStart', 'Zoll AED Plus'], departments: ['01', '69'] });
    expect((await admin({ method: 'PATCH', url: '/api/missions/move-to-batch', payload: { missionIds: [ids[1]], batchId: lotB!.id } })).statusCode).toBe(200);
    kept = await expectFiguresExact();
    expect(kept[lotA!.id]).toMatchObject({ missionCount: 3, models: ['Zoll AED Plus'], departments: ['69'] });
    expect(kept[lotB!.id]).toMatchObject({ missionCount: 1, models: ['Philips HeartStart'], departments: ['01'] });

    // A model or a department changed in place, a mission deleted, a statement over several lots at once.
    await ctx.db.update(missions).set({ defibrillatorModel: 'Schiller Fred PA-1' }).where(eq(missions.id, ids[0]!));
    await expectFiguresExact();
    await ctx.db.delete(missions).where(eq(missions.id, ids[3]!));
    await expectFiguresExact();
    await ctx.db.update(missions).set({ department: '38' }).where(inArray(missions.batchId, [lotA!.id, lotB!.id]));
    kept = await expectFiguresExact();
    expect(kept[lotB!.id]!.departments).toEqual(['38']);

    // Applications: two technicians apply, one is recruited, then finishes; one withdraws.
    const [t1, t2] = [await createTechnician(ctx.db), await createTechnician(ctx.db)];
    const c1 = await login(ctx.app, t1.technician.email);
    const applied = await as(ctx.app, c1)({ method: 'POST', url: '/api/applications/batch', payload: { batchId: lotA!.id, technicianId: t1.technician.id } });
    expect(applied.statusCode).toBe(201);
    await ctx.db.insert(applications).values({ batchId: lotA!.id, technicianId: t2.technician.id });
    kept = await expectFiguresExact();
    expect(kept[lotA!.id]).toMatchObject({ applicationCount: 2, hasRecruit: false });
    await ctx.db.update(applications).set({ status: 'Recruté' }).where(eq(applications.technicianId, t1.technician.id));
    expect((await expectFiguresExact())[lotA!.id]!.hasRecruit).toBe(true);
    await ctx.db.update(applications).set({ status: 'Terminé' }).where(eq(applications.technicianId, t1.technician.id));
    expect((await expectFiguresExact())[lotA!.id]!.hasRecruit).toBe(true);
    await ctx.db.delete(applications).where(eq(applications.technicianId, t1.technician.id));
    kept = await expectFiguresExact();
    expect(kept[lotA!.id]).toMatchObject({ applicationCount: 1, hasRecruit: false });

    // Deleting a lot sets its missions' lot to null and deletes its applications (foreign-key actions).
    await ctx.db.delete(missionBatches).where(eq(missionBatches.id, lotA!.id));
    await expectFiguresExact();
  });

  it('takes a rolled-back write back, and empties the figures of a truncated table', async () => {
    const [lot] = await ctx.db.insert(missionBatches).values({ title: 'Annulé', visibility: 'visible' }).returning();
    await ctx.db.insert(missions).values({ title: 'M', batchId: lot!.id, defibrillatorModel: 'Zoll' });
    const before = await expectFiguresExact();
    await expect(
      ctx.db.transaction(async (tx) => {
        await tx.insert(missions).values({ title: 'N', batchId: lot!.id, defibrillatorModel: 'Mindray' });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await expectFiguresExact()).toEqual(before);
    await ctx.db.execute(sql`truncate table applications`);
    await expectFiguresExact();
  });

  it('stays exact with many writers on the same lots at once (several connections on PostgreSQL)', async () => {
    const lots = await ctx.db
      .insert(missionBatches)
      .values([1, 2, 3].map((i) => ({ title: `Concurrent ${i}`, visibility: 'visible' })))
      .returning();
    const technicians = await Promise.all(Array.from({ length: 24 }, () => createTechnician(ctx.db)));
    const seeded = await ctx.db
      .insert(missions)
      .values(Array.from({ length: 24 }, (_, i) => ({ title: `C${i}`, batchId: lots[i % 3]!.id, defibrillatorModel: `Modèle ${i % 4}` })))
      .returning({ id: missions.id });
    // 48 writers at once: applications to the same three lots, missions moved between them, models changed, deletes.
    await Promise.all([
      ...technicians.map((t, i) => ctx.db.insert(applications).values({ batchId: lots[i % 3]!.id, technicianId: t.technician.id })),
      ...seeded.map(({ id }, i) => {
        if (i % 3 === 0) return ctx.db.update(missions).set({ batchId: lots[(i + 1) % 3]!.id }).where(eq(missions.id, id));
        if (i % 3 === 1) return ctx.db.update(missions).set({ defibrillatorModel: `Autre ${i}` }).where(eq(missions.id, id));
        return ctx.db.delete(missions).where(eq(missions.id, id));
      }),
    ]);
    const kept = await expectFiguresExact();
    expect(lots.reduce((sum, lot) => sum + kept[lot.id]!.applicationCount, 0)).toBe(24);
  });
});

describe('lot_sites', () => {
  it('holds the open lots’ sites, one row per department, following visibility, status, departments and sites', async () => {
    await ctx.db.delete(missionBatches);
    const [lot] = await ctx.db.insert(missionBatches).values({ title: 'Sites', visibility: 'invisible', departments: ['69', '01'] }).returning();
    await ctx.db.insert(missions).values([
      { title: 'Lyon', batchId: lot!.id, latitude: 45.764, longitude: 4.8357 },
      { title: 'Villeurbanne', batchId: lot!.id, latitude: 45.7719, longitude: 4.8902 },
    ]);
    await refreshLotsGeometry(ctx.db, [lot!.id]);
    expect(await expectSitesExact()).toBe(0);
    await ctx.db.update(missionBatches).set({ visibility: 'visible' }).where(eq(missionBatches.id, lot!.id));
    expect(await expectSitesExact()).toBe(4);
    expect(await expectDepartmentCountsExact()).toMatchObject({ '69': 1, '01': 1 });
    await ctx.db.update(missionBatches).set({ departments: [] }).where(eq(missionBatches.id, lot!.id));
    expect(await expectSitesExact()).toBe(2);
    expect(await expectDepartmentCountsExact()).toEqual({});
    await ctx.db.insert(missions).values({ title: 'Bron', batchId: lot!.id, latitude: 45.7386, longitude: 4.9135 });
    await refreshLotsGeometry(ctx.db, [lot!.id]);
    expect(await expectSitesExact()).toBe(3);
    // A change of figures only (an application) leaves the sites as they are.
    const t = await createTechnician(ctx.db);
    await ctx.db.insert(applications).values({ batchId: lot!.id, technicianId: t.technician.id });
    expect(await expectSitesExact()).toBe(3);
    await ctx.db.update(missionBatches).set({ status: 'completed', departments: ['38', '38'] }).where(eq(missionBatches.id, lot!.id));
    expect(await expectSitesExact()).toBe(0);
    await expectDepartmentCountsExact();
    await ctx.db.update(missionBatches).set({ status: 'active' }).where(eq(missionBatches.id, lot!.id));
    expect(await expectSitesExact()).toBe(3);
    // A department named twice counts the lot once.
    expect(await expectDepartmentCountsExact()).toEqual({ '38': 1 });
    await ctx.db.delete(missionBatches).where(eq(missionBatches.id, lot!.id));
    expect(await expectSitesExact()).toBe(0);
    expect(await expectDepartmentCountsExact()).toEqual({});
  });

  it('lot_markers holds the map marker of each open lot with a located site, following its title, filters, openness and sites', async () => {
    await ctx.db.delete(missionBatches);
    const [lot] = await ctx.db.insert(missionBatches).values({ title: 'Marqueur « Lyon »', visibility: 'invisible', departments: ['69'], tags: ['Carte'] }).returning();
    await ctx.db.insert(missions).values([
      { title: 'Lyon', batchId: lot!.id, latitude: 45.764, longitude: 4.8357 },
      { title: 'Villeurbanne', batchId: lot!.id, latitude: 45.7719, longitude: 4.8902 },
    ]);
    await refreshLotsGeometry(ctx.db, [lot!.id]);
    expect(await expectMarkersExact()).toBe(0);
    await ctx.db.update(missionBatches).set({ visibility: 'visible' }).where(eq(missionBatches.id, lot!.id));
    expect(await expectMarkersExact()).toBe(1);
    await ctx.db.update(missionBatches).set({ title: 'Marqueur "renommé" \\ \u0001', tags: ['Carte', 'Urgent'], departments: ['69', '01'] }).where(eq(missionBatches.id, lot!.id));
    expect(await expectMarkersExact()).toBe(1);
    // A new site moves the marker.
    await ctx.db.insert(missions).values({ title: 'Bron', batchId: lot!.id, latitude: 45.7386, longitude: 4.9135 });
    await refreshLotsGeometry(ctx.db, [lot!.id]);
    expect(await expectMarkersExact()).toBe(1);
    // A lot without a located site has no marker; a closed lot neither; a deleted lot takes its marker with it.
    const [empty] = await ctx.db.insert(missionBatches).values({ title: 'Sans site', visibility: 'visible' }).returning();
    expect(await expectMarkersExact()).toBe(1);
    await ctx.db.update(missionBatches).set({ status: 'completed' }).where(eq(missionBatches.id, lot!.id));
    expect(await expectMarkersExact()).toBe(0);
    await ctx.db.update(missionBatches).set({ status: 'active' }).where(eq(missionBatches.id, lot!.id));
    expect(await expectMarkersExact()).toBe(1);
    await ctx.db.delete(missionBatches).where(inArray(missionBatches.id, [lot!.id, empty!.id]));
    expect(await expectMarkersExact()).toBe(0);
  });

  it('rebuilds everything with maillon_rebuild_lot_listing() after writes made without the triggers', async () => {
    const [lot] = await ctx.db.insert(missionBatches).values({ title: 'Réparé', visibility: 'visible', tags: ['Réparation'] }).returning();
    await ctx.db.insert(missions).values({ title: 'M', batchId: lot!.id, defibrillatorModel: 'Zoll', latitude: 45.7, longitude: 4.8 });
    await refreshLotsGeometry(ctx.db, [lot!.id]);
    await ctx.db.execute(sql`update mission_batches set mission_count = 0, mission_models = '{}'`);
    await ctx.db.execute(sql`delete from lot_sites`);
    await ctx.db.execute(sql`delete from lot_markers`);
    await ctx.db.execute(sql`delete from row_counts where table_name in ('open_lot_departments', 'open_lot_tags')`);
    await ctx.db.execute(sql`select maillon_rebuild_lot_listing()`);
    await expectDepartmentCountsExact();
    expect((await expectOpenLotCountsExact('tags'))['Réparation']).toBe(1);
    expect((await expectFiguresExact())[lot!.id]).toMatchObject({ missionCount: 1, models: ['Zoll'] });
    expect(await expectSitesExact()).toBe(1);
    expect(await expectMarkersExact()).toBe(1);
  });
});
