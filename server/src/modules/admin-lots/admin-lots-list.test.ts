import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { applications, missionBatches, missions, shipments } from '../../db/schema';
import { rowsOf } from '../../lib/change-feed/triggers';
import { type as, createTechnician, type TestContext, withAdminApp } from '../../../test/helpers';
import { ensureSystemLot } from '../lifecycle/lifecycle.service';
import { getBatch } from './admin-lots.service';
import { expectPageAsRead } from '../../../test/page-json';
import { z } from 'zod';
import { adminBatchSchema, completedBatchMissionSchema, completedBatchSchema } from '@maillon/common/schemas/admin-lots';

let ctx: TestContext;
let admin: ReturnType<typeof as>;
withAdminApp((app) => ({ ctx, admin } = app));

const ids = (body: { id: string }[]) => body.map((b) => b.id);

async function expectedIds(status: 'active' | 'completed', where = sql`true`): Promise<string[]> {
  const rows = rowsOf<{ id: string }>(
    await ctx.db.execute(sql`select id from mission_batches where status = ${status} and not is_system and ${where} order by created_at desc, id desc`),
  );
  return rows.map((r) => r.id);
}

describe('GET /api/mission-batches: the page built by PostgreSQL (decisions 031, 049)', () => {
  it('answers each lot as the single-lot read does, in order, with the total of the table', async () => {
    await ensureSystemLot(ctx.db);
    const technicians = await Promise.all([0, 1, 2].map(() => createTechnician(ctx.db).then((t) => t.technician)));
    const lots = await ctx.db
      .insert(missionBatches)
      .values([
        {
          title: 'Lot « complet » \\ "x"',
          description: 'Ligne 1\nLigne 2 😀',
          priceCents: 100_050,
          departments: ['69', '2A'],
          tags: ['Maintenance préventive', 'a,b'],
          deadline: new Date('2027-03-01T18:00:00.000Z'),
          visibility: 'visible',
          createdAt: sql`'2026-02-03 04:05:06.789999+00'::timestamptz` as unknown as Date,
        },
        { title: 'Lot vide', description: null, createdAt: new Date('2026-02-01T00:00:00.000Z') },
        { title: 'Même instant 1', createdAt: new Date('2026-01-01T00:00:00.000Z') },
        { title: 'Même instant 2', createdAt: new Date('2026-01-01T00:00:00.000Z') },
        { title: 'Lot terminé', status: 'completed', createdAt: new Date('2026-01-05T00:00:00.000Z') },
      ])
      .returning({ id: missionBatches.id });
    const [full, , same1, , done] = lots.map((l) => l.id);
    await ctx.db.insert(missions).values([
      { title: 'M1', batchId: full!, status: 'active' },
      { title: 'M2', batchId: done!, status: 'completed', serialNumber: 'SN-T' },
      { title: 'Même', batchId: done!, status: 'completed', clientName: 'Mairie « centre » \\ "x"', location: 'Lyon\n2e 😀' },
      { title: 'Même', batchId: done!, status: 'cancelled', defibrillatorModel: 'Zoll AED 3', visitType: 'Maintenance', department: '69' },
    ]);
    await ctx.db.insert(applications).values([
      { batchId: full!, technicianId: technicians[0]!.id, status: 'Recruté' },
      { batchId: full!, technicianId: technicians[1]!.id, status: 'En attente' },
      { batchId: full!, technicianId: technicians[2]!.id, status: 'Refusé' },
      { batchId: same1!, technicianId: technicians[1]!.id, status: 'En attente' },
      { batchId: done!, technicianId: technicians[2]!.id, status: 'Terminé' },
    ]);
    await ctx.db.insert(shipments).values([{ batchId: full!, technicianId: technicians[0]!.id }]);

    const response = await admin({ method: 'GET', url: '/api/mission-batches?limit=100' });
    expect(response.statusCode).toBe(200);
    const order = await expectedIds('active');
    expect(ids(response.json())).toEqual(order);
    expect(response.json()).toEqual(await Promise.all(order.map((id) => getBatch(ctx.db, id))));
    await expectPageAsRead(response.json(), adminBatchSchema, (id) => getBatch(ctx.db, id));
    expect(response.headers['x-total-count']).toBe(String(order.length));
    expect(response.json()[0]).toMatchObject({
      createdAt: '2026-02-03T04:05:06.789Z',
      applicationCount: 3,
      pendingApplicationCount: 1,
      hasShipments: true,
      recruitedTechnician: { id: technicians[0]!.id },
    });

    const completed = await admin({ method: 'GET', url: '/api/mission-batches/completed?limit=100' });
    const completedOrder = await expectedIds('completed');
    expect(ids(completed.json())).toEqual(completedOrder);
    expect(completed.json().map(({ missions: _missions, ...lot }: { missions: unknown }) => lot)).toEqual(
      await Promise.all(completedOrder.map((id) => getBatch(ctx.db, id))),
    );
    expect(completed.json()[0].missions[0]).toEqual(expect.objectContaining({ title: 'M2', serialNumber: 'SN-T' }));
    // Written by PostgreSQL (decision 050): each lot as getBatch reads it, its missions as the query builder reads
    // them, by title then id.
    const missionsOf = (batchId: string) =>
      ctx.db
        .select({
          id: missions.id,
          title: missions.title,
          serialNumber: missions.serialNumber,
          clientName: missions.clientName,
          defibrillatorModel: missions.defibrillatorModel,
          visitType: missions.visitType,
          location: missions.location,
          department: missions.department,
          status: missions.status,
        })
        .from(missions)
        .where(eq(missions.batchId, batchId))
        .orderBy(missions.title, missions.id);
    await expectPageAsRead(completed.json(), completedBatchSchema.extend({ missions: z.array(completedBatchMissionSchema.strict()) }), async (id) => ({
      ...(await getBatch(ctx.db, id)),
      missions: await missionsOf(id),
    }));
    expect(completed.json()[0].missions).toHaveLength(3);

    // Pages, a search (over the lot and its missions), a page past the end: the lots of the query, its count as total.
    const searched = sql`(title ilike '%lot%' or exists (select 1 from missions m where m.batch_id = mission_batches.id and m.title ilike '%lot%'))`;
    const cases: [string, string[]][] = [
      ['', order],
      ['search=lot', await expectedIds('active', searched)],
      ['search=M1', [full!]],
    ];
    for (const [query, all] of cases) {
      for (const [limit, offset] of [[1, 0], [2, 1], [2, 3], [2, 50]] as const) {
        const page = await admin({ method: 'GET', url: `/api/mission-batches?${query}&limit=${limit}&offset=${offset}` });
        expect(ids(page.json()), `${query} ${limit} ${offset}`).toEqual(all.slice(offset, offset + limit));
        expect(page.headers['x-total-count'], `${query} ${limit} ${offset}`).toBe(String(all.length));
      }
    }

    // The kept number of applications follows a change of status and a deletion.
    await ctx.db.update(applications).set({ status: 'Refusé' }).where(eq(applications.batchId, same1!));
    await ctx.db.delete(applications).where(eq(applications.technicianId, technicians[2]!.id));
    const after = await admin({ method: 'GET', url: '/api/mission-batches?limit=100' });
    expect(after.json()).toEqual(await Promise.all(order.map((id) => getBatch(ctx.db, id))));
  });

  it('keeps each lot’s missions as « Terminés » answers them through every write of its missions (decision 065)', async () => {
    /** Each lot's kept missions against the JSON read from its missions, as the page wrote it before 065: the lots that differ. */
    const stale = async () =>
      rowsOf<{ title: string }>(
        await ctx.db.execute(sql`select b.title from mission_batches b where b.missions_json::text is distinct from (
          select coalesce(json_agg(m order by m.title, m.id), '[]')::text from (select id, title, serial_number as "serialNumber",
            client_name as "clientName", defibrillator_model as "defibrillatorModel", visit_type as "visitType", location, department, status
            from missions where batch_id = b.id) m) order by b.title`),
      ).map((r) => r.title);
    const lots = await ctx.db
      .insert(missionBatches)
      .values([
        { title: 'Terminé A', status: 'completed', createdAt: new Date('2026-04-02T00:00:00.000Z') },
        { title: 'Terminé B', status: 'completed', createdAt: new Date('2026-04-01T00:00:00.000Z') },
      ])
      .returning({ id: missionBatches.id });
    const [a, b] = lots.map((l) => l.id);
    const made = await ctx.db
      .insert(missions)
      .values([
        { title: 'Visite 2', batchId: a!, status: 'completed', serialNumber: 'SN-1' },
        { title: 'Visite 1', batchId: a!, status: 'cancelled', clientName: 'Mairie' },
        { title: 'Visite 3', batchId: b!, status: 'completed', location: 'Lyon' },
      ])
      .returning({ id: missions.id });
    const page = async () => {
      const response = await admin({ method: 'GET', url: '/api/mission-batches/completed?limit=100' });
      expect(response.statusCode).toBe(200);
      // This test's two lots (the file's other tests leave theirs).
      return Object.fromEntries(
        (response.json() as { title: string; missions: { title: string; status: string; location: string | null }[] }[])
          .filter((lot) => lot.title.startsWith('Terminé '))
          .map((lot) => [lot.title, lot.missions.map((m) => `${m.title}/${m.status}/${m.location ?? ''}`)]),
      );
    };
    expect(await page()).toEqual({ 'Terminé A': ['Visite 1/cancelled/', 'Visite 2/completed/'], 'Terminé B': ['Visite 3/completed/Lyon'] });

    // Fields the searched text holds only lowercased, or not at all (the status): a title's case, a status.
    await ctx.db.update(missions).set({ title: 'VISITE 2' }).where(eq(missions.id, made[0]!.id));
    await ctx.db.update(missions).set({ status: 'completed' }).where(eq(missions.id, made[1]!.id));
    // (Their order depends on the database's collation: upper case first in C, not in a language's.)
    expect((await page())['Terminé A']).toEqual(expect.arrayContaining(['VISITE 2/completed/', 'Visite 1/completed/']));
    expect(await stale()).toEqual([]);
    // Moved to the other lot, deleted, added, and every mission of both lots in one statement.
    await ctx.db.update(missions).set({ batchId: b! }).where(eq(missions.id, made[1]!.id));
    await ctx.db.delete(missions).where(eq(missions.id, made[2]!.id));
    await ctx.db.insert(missions).values({ title: 'Visite 4', batchId: a!, status: 'completed', location: 'Bron' });
    await ctx.db.update(missions).set({ location: sql`coalesce(location, '') || ' (revu)'` }).where(sql`batch_id in (${a!}, ${b!})`);
    expect(await page()).toEqual({
      'Terminé A': ['VISITE 2/completed/ (revu)', 'Visite 4/completed/Bron (revu)'],
      'Terminé B': ['Visite 1/completed/ (revu)'],
    });
    expect(await stale()).toEqual([]);
    // The mission's lot emptied: an empty list.
    await ctx.db.delete(missions).where(eq(missions.batchId, b!));
    expect((await page())['Terminé B']).toEqual([]);
    expect(await stale()).toEqual([]);
  });
});

describe('GET /api/mission-batches?search=: the lot and the text it keeps of its missions, each on its trigram index (decisions 054, 055)', () => {
  /** Lots whose title or description, or one of whose missions' nine searched fields, contains `needle` (the rule before 054). */
  const byFields = (needle: string) => {
    const pattern = `%${needle}%`;
    return sql`(title ilike ${pattern} or description ilike ${pattern} or exists (select 1 from missions m where m.batch_id = mission_batches.id and (
      m.title ilike ${pattern} or m.description ilike ${pattern} or m.location ilike ${pattern} or m.department ilike ${pattern}
      or m.serial_number ilike ${pattern} or m.defibrillator_model ilike ${pattern} or m.visit_type ilike ${pattern}
      or m.observations ilike ${pattern} or m.client_name ilike ${pattern})))`;
  };
  /** Every lot's kept text of its missions, against the text recomputed from the missions: the lots where they differ. */
  const stale = async () =>
    rowsOf<{ id: string }>(
      await ctx.db.execute(sql`select b.id from mission_batches b where b.missions_search_text is distinct from
        (select coalesce(string_agg(m.search_text, ' ' order by m.id), '') from missions m where m.batch_id = b.id)`),
    );
  const searchIds = async (needle: string, status: 'active' | 'completed' = 'active') => {
    const response = await admin({ method: 'GET', url: `/api/mission-batches${status === 'completed' ? '/completed' : ''}?search=${encodeURIComponent(needle)}&limit=100` });
    expect(response.statusCode).toBe(200);
    return { ids: ids(response.json()), total: response.headers['x-total-count'] };
  };

  it('finds a lot by its own text or any field of its missions, and follows the missions written, moved and deleted', async () => {
    const lots = await ctx.db
      .insert(missionBatches)
      .values([
        { title: 'Tournée Croix-Rousse', description: 'Quartier « nord »', createdAt: new Date('2026-03-03T00:00:00Z') },
        { title: 'Tournée Presqu’île', createdAt: new Date('2026-03-02T00:00:00Z') },
        { title: 'Tournée Gerland 4417', status: 'completed', createdAt: new Date('2026-03-01T00:00:00Z') },
      ])
      .returning({ id: missionBatches.id });
    const [north, centre, done] = lots.map((l) => l.id);
    const made = await ctx.db
      .insert(missions)
      .values([
        { title: 'Visite A', batchId: north!, status: 'active', clientName: 'Boulangerie JAUNE', serialNumber: 'SN-ÉTÉ-4417' },
        { title: 'Visite B', batchId: centre!, status: 'active', observations: 'Boîtier fêlé', defibrillatorModel: 'Zoll AED Plus' },
        { title: 'Visite C', batchId: done!, status: 'completed', location: '7 rue de Gerland, Lyon', visitType: 'Installation' },
      ])
      .returning({ id: missions.id });
    const cases: [string, 'active' | 'completed'][] = [
      ['jaune', 'active'], ['SN-été', 'active'], ['FÊLÉ', 'active'], ['zoll', 'active'], ['croix', 'active'], ['« nord', 'active'],
      ['tournée', 'active'], ['gerland', 'completed'], ['installation', 'completed'], ['visite', 'completed'], ['absent', 'active'], ['e', 'active'],
      // Digits give the indexes a fragment (indexedFragment): on the missions' side, then on the lot's own.
      ['été-4417', 'active'], ['4417', 'active'], ['4417', 'completed'],
      // The lot's own text and its missions' are two texts: a search across them finds nothing, as field by field.
      ['« nord » visite', 'active'],
    ];
    for (const [needle, status] of cases) {
      const expected = await expectedIds(status, byFields(needle));
      expect(await searchIds(needle, status), needle).toEqual({ ids: expected, total: String(expected.length) });
    }
    expect(await stale()).toEqual([]);

    // A mission's searched field changed, a mission moved to another lot, one deleted, one added: the lots follow.
    await ctx.db.update(missions).set({ clientName: 'Pharmacie Verte' }).where(eq(missions.id, made[0]!.id));
    expect((await searchIds('jaune')).ids).toEqual([]);
    expect((await searchIds('pharmacie verte')).ids).toEqual([north]);
    await ctx.db.update(missions).set({ batchId: north! }).where(eq(missions.id, made[1]!.id));
    expect((await searchIds('fêlé')).ids).toEqual([north]);
    await ctx.db.delete(missions).where(eq(missions.id, made[0]!.id));
    expect((await searchIds('pharmacie')).ids).toEqual([]);
    await ctx.db.insert(missions).values({ title: 'Visite D', batchId: centre!, status: 'active', department: '2A' });
    expect((await searchIds('visite d')).ids).toEqual([centre]);
    expect(await stale()).toEqual([]);
    // A lot renamed is found by its new title.
    await ctx.db.update(missionBatches).set({ title: 'Tournée Vaise' }).where(eq(missionBatches.id, centre!));
    expect((await searchIds('vaise')).ids).toEqual([centre]);
    expect((await searchIds('presqu’île')).ids).toEqual([]);
  });

  it('counts up to 1 000 lots found, then walks the order and says « more »', async () => {
    await ctx.db.insert(missionBatches).values(
      Array.from({ length: 1300 }, (_, n) => ({
        title: n % 10 === 0 ? `Secteur ${n}` : `Lot ${n}`,
        createdAt: new Date(Date.UTC(2026, 3, 1, 0, Math.floor(n / 3))),
      })),
    );
    const past = await admin({ method: 'GET', url: '/api/mission-batches?search=lot&limit=20&offset=0' });
    expect(past.headers['x-total-count']).toBe('1000');
    expect(past.headers['x-total-capped']).toBe('true');
    const all = await expectedIds('active', byFields('lot'));
    expect(all.length).toBeGreaterThan(1000);
    expect(ids(past.json())).toEqual(all.slice(0, 20));
    const late = await admin({ method: 'GET', url: '/api/mission-batches?search=lot&limit=20&offset=980' });
    expect(ids(late.json())).toEqual(all.slice(980, 1000));
    const few = await expectedIds('active', byFields('secteur'));
    expect(await searchIds('secteur')).toEqual({ ids: few.slice(0, 100), total: String(few.length) });
  });
});
