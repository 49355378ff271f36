import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { addDaysToDay, ATTENTION_WINDOW_DAYS, parisDay } from '@maillon/common/device-rules';
import { applications, devices, invoices, jobs, learningResources, missionBatches, missions, resourceViews, shipments, technicians, transfers } from '../db/schema';
import type { Db } from '../db/client';
import { getAdminCounts } from '../modules/dashboard/dashboard.service';
import { countAdminInvoiceChips } from '../modules/money/money.repository';
import { as, createAdmin, createTechnician, createTestContext, login, runConcurrently, type TestContext } from '../../test/helpers';
import { rowsOf } from './change-feed/triggers';
import { COUNTED_TABLES, countLots, countMissions, devicesNeedingAttentionCountSql, foldDueDevices } from './row-counts';

let ctx: TestContext;
let admin: ReturnType<typeof as>;
let adminCookie: string;

beforeAll(async () => {
  ctx = await createTestContext({}, { poolSize: 8 });
  adminCookie = await login(ctx.app, (await createAdmin(ctx.db)).email);
  admin = as(ctx.app, adminCookie);
});
afterAll(async () => {
  await ctx.close();
});

/** The counts row_counts holds (zeros left out), and the same counted again from the tables' rows. */
async function keptAndRecounted(db: Db) {
  const keys = rowsOf<{ table_name: string; keyed: string }>(await db.execute(sql`select table_name, keyed from maillon_row_count_keys()`));
  const recounted: Record<string, number> = {};
  for (const { table_name: table, keyed } of keys) {
    const rows = rowsOf<{ k: string; n: string | number }>(
      await db.execute(sql.raw(`select ${keyed} as k, count(*) as n from "${table}" r group by 1`)),
    );
    for (const row of rows) recounted[`${table}/${row.k}`] = Number(row.n);
  }
  // The open lots of each department (migration 0019), kept beside the tables' counts.
  for (const row of rowsOf<{ k: string; n: string | number }>(
    await db.execute(sql`
      select d.k, count(*) as n from mission_batches r cross join lateral (select distinct k from unnest(r.departments) k) d
      where r.visibility = 'visible' and r.status <> 'completed' and not r.is_system group by 1`),
  )) {
    recounted[`open_lot_departments/${row.k}`] = Number(row.n);
  }
  // And of each tag (migration 0024).
  for (const row of rowsOf<{ k: string; n: string | number }>(
    await db.execute(sql`
      select g.k, count(*) as n from mission_batches r cross join lateral (select distinct k from unnest(r.tags) k) g
      where r.visibility = 'visible' and r.status <> 'completed' and not r.is_system group by 1`),
  )) {
    recounted[`open_lot_tags/${row.k}`] = Number(row.n);
  }
  const kept: Record<string, number> = {};
  for (const row of rowsOf<{ table_name: string; key: string; n: string | number }>(await db.execute(sql`select table_name, key, n from row_counts where n <> 0`))) {
    kept[`${row.table_name}/${row.key}`] = Number(row.n);
  }
  return { kept, recounted };
}

async function expectExact(db: Db = ctx.db) {
  const { kept, recounted } = await keptAndRecounted(db);
  expect(kept).toEqual(recounted);
  // The admin badges against the counts over the tables (the queries they replaced).
  const attentionDay = addDaysToDay(parisDay(), ATTENTION_WINDOW_DAYS);
  const [direct] = rowsOf<Record<string, string | number>>(
    await db.execute(sql`
      select
        (select count(*) from jobs where status = 'pending') as suggestions,
        ((select count(*) from missions where batch_id is null and status in ('draft', 'active'))
          + (select count(*) from mission_batches where status = 'active' and not is_system)) as missions_lots,
        (select count(*) from technicians where status = 'pending') as techniciens,
        ((select count(*) from invoices where status = 'Facture envoyée')
          + (select count(*) from transfers where status = 'Enregistré')) as factures_virements,
        (select count(*) from shipments where status in ('draft', 'in_transit')) as expeditions,
        (select count(*) from learning_resources) as librairie,
        (select count(*) from devices where functional_state = 'Hors service' or (functional_state <> 'Supprimé définitivement' and
          least(battery_expiry, adult_pads_expiry, case when pediatric_pads_present then pediatric_pads_expiry end, next_maintenance_due) <= ${attentionDay}::date)) as parc_dae`),
  );
  expect(await getAdminCounts(db)).toEqual({
    suggestions: Number(direct!.suggestions),
    missionsLots: Number(direct!.missions_lots),
    techniciens: Number(direct!.techniciens),
    facturesVirements: Number(direct!.factures_virements),
    expeditions: Number(direct!.expeditions),
    librairie: Number(direct!.librairie),
    parcDae: Number(direct!.parc_dae),
  });
  // Each invoice knows whether it is paid (migration 0040), and the chips read from the counts equal the chips counted
  // over the tables (the statement they replaced).
  const [paid] = rowsOf<{ wrong: string | number }>(
    await db.execute(sql`select count(*) as wrong from invoices i
      where i.has_paid_transfer <> exists (select 1 from transfers t where t.invoice_id = i.id and t.status = 'Effectué')`),
  );
  expect(Number(paid!.wrong)).toBe(0);
  const [chips] = rowsOf<Record<string, string | number>>(
    await db.execute(sql`
      select count(*) filter (where status = 'Mission à terminer' and not p) as a, count(*) filter (where status = 'Facture à soumettre' and not p) as b,
        count(*) filter (where status = 'Facture envoyée' and not p) as c, count(*) filter (where status in ('Terminé', 'Traité') or p) as d
      from (select i.status, exists (select 1 from transfers t where t.invoice_id = i.id and t.status = 'Effectué') as p from invoices i) x`),
  );
  expect(await countAdminInvoiceChips(db, {})).toEqual({
    'Mission à réaliser': Number(chips!.a),
    'Facture à soumettre': Number(chips!.b),
    'Facture envoyée': Number(chips!.c),
    Terminé: Number(chips!.d),
  });
  // The list totals read from the counts, against counts over the tables.
  const direct2 = async (query: ReturnType<typeof sql>) => Number(rowsOf<{ n: string | number }>(await db.execute(query))[0]!.n);
  expect(await countLots(db, 'active')).toBe(await direct2(sql`select count(*) as n from mission_batches where status = 'active' and not is_system`));
  expect(await countLots(db, 'completed')).toBe(await direct2(sql`select count(*) as n from mission_batches where status = 'completed' and not is_system`));
  expect(await countMissions(db, {})).toBe(await direct2(sql`select count(*) as n from missions`));
  expect(await countMissions(db, { unbatched: true })).toBe(
    await direct2(sql`select count(*) as n from missions where batch_id is null and status in ('draft', 'active')`),
  );
  for (const status of ['draft', 'active', 'completed', 'cancelled']) {
    expect(await countMissions(db, { status })).toBe(await direct2(sql`select count(*) as n from missions where status = ${status}`));
    expect(await countMissions(db, { status, unbatched: true })).toBe(
      await direct2(sql`select count(*) as n from missions where status = ${status} and batch_id is null`),
    );
  }
  return kept;
}

const missionPayload = { title: 'Contrôle', description: 'd', location: '3 rue X, 75011 Paris', department: '75', budget: '10', deadline: '2027-03-01' };

describe('row counts kept by triggers (decision 027)', () => {
  it('has the counting triggers on every counted table, and only there', async () => {
    const rows = rowsOf<{ table: string; n: string | number }>(
      await ctx.db.execute(sql`
        select c.relname as "table", count(*) as n from pg_trigger t join pg_class c on c.oid = t.tgrelid
        where t.tgname like 'maillon_count_rows_%' group by 1 order by 1`),
    );
    expect(rows.map((r) => r.table)).toEqual([...COUNTED_TABLES].sort());
    expect(rows.every((r) => Number(r.n) === 4)).toBe(true);
  });

  it('stays exact after inserts, updates, deletes through the API and the query builder', async () => {
    await expectExact();
    // Missions through the API: created unsorted and in a lot, moved, published, deleted.
    const [lot] = await ctx.db.insert(missionBatches).values({ title: 'Lot A', visibility: 'visible', status: 'active' }).returning();
    const created = [];
    for (let i = 0; i < 3; i++) created.push((await admin({ method: 'POST', url: '/api/missions', payload: missionPayload })).json().id as string);
    const inLot = await admin({ method: 'POST', url: '/api/missions', payload: { ...missionPayload, batchId: lot!.id } });
    expect(inLot.statusCode).toBe(201);
    let kept = await expectExact();
    expect(kept['missions/draft.unsorted']).toBe(3);
    expect((await admin({ method: 'PATCH', url: '/api/missions/move-to-batch', payload: { missionIds: created.slice(0, 2), batchId: lot!.id } })).statusCode).toBe(200);
    kept = await expectExact();
    expect(kept['missions/draft.unsorted']).toBe(1);
    expect((await admin({ method: 'DELETE', url: `/api/missions/${created[2]}` })).statusCode).toBe(200);
    kept = await expectExact();
    expect(kept['missions/draft.unsorted']).toBeUndefined();

    // The list's total follows (read from the counts), for each filter it serves.
    const list = await admin({ method: 'GET', url: '/api/missions?limit=1' });
    expect(Number(list.headers['x-total-count'])).toBe(Number((await ctx.db.select({ n: sql<number>`count(*)` }).from(missions))[0]!.n));
    expect(await countMissions(ctx.db, { unbatched: true })).toBe(0);
    expect(await countMissions(ctx.db, { status: 'draft' })).toBe(3);

    // A statement changing many rows at once, and a change of key back and forth in one statement.
    await ctx.db.update(missions).set({ status: 'active' }).where(eq(missions.batchId, lot!.id));
    await expectExact();
    await ctx.db.update(missions).set({ batchId: null });
    kept = await expectExact();
    expect(kept['missions/active.unsorted']).toBe(3);

    // Lots: visibility and status changes; deleting a lot sets its missions' batch_id to null (a foreign-key action).
    await ctx.db.update(missions).set({ batchId: lot!.id });
    await ctx.db.update(missionBatches).set({ status: 'completed' }).where(eq(missionBatches.id, lot!.id));
    await expectExact();
    await ctx.db.delete(missionBatches).where(eq(missionBatches.id, lot!.id));
    kept = await expectExact();
    expect(kept['missions/active.unsorted']).toBe(3);

    // Technicians, jobs, shipments, the library, devices.
    const tech = await createTechnician(ctx.db, { status: 'pending' });
    await expectExact();
    await ctx.db.update(technicians).set({ status: 'active' }).where(eq(technicians.id, tech.technician.id));
    await ctx.db
      .insert(jobs)
      .values([1, 2].map((i) => ({ serialNumber: `SN${i}`, clientName: 'c', defibrillatorModel: 'm', visitType: 'v', department: '75', completionLink: 'l', address: 'a' })));
    await ctx.db.insert(shipments).values([
      { technicianId: tech.technician.id, status: 'draft' },
      { technicianId: tech.technician.id, status: 'in_transit' },
    ]);
    await ctx.db.update(shipments).set({ status: 'delivered' }).where(eq(shipments.status, 'in_transit'));
    // Applications (migration 0030): made, one recruited, one withdrawn.
    const [openLot] = await ctx.db.insert(missionBatches).values({ title: 'Lot B', visibility: 'visible', status: 'active' }).returning();
    const other = await createTechnician(ctx.db);
    const made = await ctx.db
      .insert(applications)
      .values([
        { batchId: openLot!.id, technicianId: tech.technician.id },
        { batchId: openLot!.id, technicianId: other.technician.id },
      ])
      .returning();
    expect((await expectExact())['applications/En attente']).toBe(2);
    await ctx.db.update(applications).set({ status: 'Recruté' }).where(eq(applications.id, made[0]!.id));
    await ctx.db.delete(applications).where(eq(applications.id, made[1]!.id));
    kept = await expectExact();
    expect([kept['applications/Recruté'], kept['applications/En attente']]).toEqual([1, undefined]);
    // Invoices (migration 0040): paid when a transfer becomes « Effectué », no longer when it moves to another invoice
    // or is deleted; the chips follow.
    const [sent, todo] = await ctx.db
      .insert(invoices)
      .values([
        { technicianId: tech.technician.id, status: 'Facture envoyée' },
        { technicianId: other.technician.id, status: 'Mission à terminer' },
      ])
      .returning();
    const [transfer] = await ctx.db
      .insert(transfers)
      .values({ technicianId: tech.technician.id, invoiceId: sent!.id, invoiceRef: 'FAC-1', amountCents: 100 })
      .returning();
    expect((await expectExact())['invoices/Facture envoyée']).toBe(1);
    await ctx.db.update(transfers).set({ status: 'Effectué' }).where(eq(transfers.id, transfer!.id));
    kept = await expectExact();
    expect([kept['invoices/Facture envoyée'], kept['invoices/Facture envoyée.paid']]).toEqual([undefined, 1]);
    expect((await countAdminInvoiceChips(ctx.db, {})).Terminé).toBe(1);
    await ctx.db.update(transfers).set({ invoiceId: todo!.id }).where(eq(transfers.id, transfer!.id));
    kept = await expectExact();
    expect([kept['invoices/Facture envoyée'], kept['invoices/Mission à terminer.paid']]).toEqual([1, 1]);
    await ctx.db.delete(transfers).where(eq(transfers.id, transfer!.id));
    kept = await expectExact();
    expect([kept['invoices/Mission à terminer'], kept['invoices/Mission à terminer.paid']]).toEqual([1, undefined]);
    await ctx.db.insert(transfers).values({ technicianId: tech.technician.id, invoiceId: sent!.id, invoiceRef: 'FAC-2', status: 'Effectué' });
    expect((await expectExact())['invoices/Facture envoyée.paid']).toBe(1);
    // A deleted invoice leaves its transfers without one (a foreign-key action on transfers).
    await ctx.db.delete(invoices).where(eq(invoices.id, sent!.id));
    expect((await expectExact())['invoices/Facture envoyée.paid']).toBeUndefined();
    // Readers of a resource (migration 0032): counted under the resource's id, gone with the resource.
    const [read] = await ctx.db.insert(learningResources).values({ title: 'Lu', description: 'd', url: 'https://lu.test', type: 'video', duration: 5 }).returning();
    await ctx.db.insert(resourceViews).values([{ resourceId: read!.id, technicianId: tech.technician.id }, { resourceId: read!.id, technicianId: other.technician.id }]);
    expect((await expectExact())[`resource_views/${read!.id}`]).toBe(2);
    await ctx.db.delete(learningResources).where(eq(learningResources.id, read!.id));
    expect((await expectExact())[`resource_views/${read!.id}`]).toBeUndefined();
    const [resource] = await ctx.db.insert(learningResources).values({ title: 'M', description: 'd', url: 'https://a.test', type: 'video', duration: 5 }).returning();
    await expectExact();
    const soon = addDaysToDay(parisDay(), 10);
    const later = addDaysToDay(parisDay(), 400);
    const inserted = await ctx.db
      .insert(devices)
      .values([
        { serialNumber: 'A1', serialKey: 'A1', batteryExpiry: soon },
        { serialNumber: 'A2', serialKey: 'A2', batteryExpiry: later, adultPadsExpiry: later, pediatricPadsPresent: false, pediatricPadsExpiry: soon },
        { serialNumber: 'A3', serialKey: 'A3', functionalState: 'Hors service' },
        { serialNumber: 'A4', serialKey: 'A4', functionalState: 'Supprimé définitivement', batteryExpiry: soon },
      ])
      .returning();
    expect((await expectExact())['devices/out']).toBe(1);
    expect((await getAdminCounts(ctx.db)).parcDae).toBe(2);
    await ctx.db.update(devices).set({ pediatricPadsPresent: true }).where(eq(devices.serialKey, 'A2'));
    expect((await getAdminCounts(ctx.db)).parcDae).toBe(3);
    await expectExact();
    await ctx.db.delete(devices).where(inArray(devices.id, inserted.map((d) => d.id)));
    await ctx.db.delete(learningResources).where(eq(learningResources.id, resource!.id));
    await ctx.db.delete(jobs);
    await expectExact();
  });

  it('takes a rolled-back write back with it, and empties a truncated table’s counts', async () => {
    const before = await expectExact();
    await expect(
      ctx.db.transaction(async (tx) => {
        await tx.insert(missions).values({ title: 'Annulée' });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await expectExact()).toEqual(before);
    await ctx.db.execute(sql`truncate table jobs`);
    await ctx.db.insert(jobs).values({ serialNumber: 'T', clientName: 'c', defibrillatorModel: 'm', visitType: 'v', department: '75', completionLink: 'l', address: 'a' });
    await ctx.db.execute(sql`truncate table jobs`);
    const after = await expectExact();
    expect(Object.keys(after).filter((k) => k.startsWith('jobs/'))).toEqual([]);
    // Truncating the transfers leaves no invoice paid (migration 0040).
    const payee = await createTechnician(ctx.db);
    const [bill] = await ctx.db.insert(invoices).values({ technicianId: payee.technician.id, status: 'Terminé' }).returning();
    await ctx.db.insert(transfers).values({ technicianId: payee.technician.id, invoiceId: bill!.id, invoiceRef: 'T-1', status: 'Effectué' });
    expect((await expectExact())['invoices/Terminé.paid']).toBe(1);
    await ctx.db.execute(sql`truncate table transfers cascade`);
    const truncated = await expectExact();
    expect([truncated['invoices/Terminé'], truncated['invoices/Terminé.paid']]).toEqual([1, undefined]);
  });

  it('stays exact under concurrent writers (several connections on PostgreSQL)', async () => {
    const [lotA, lotB] = await ctx.db
      .insert(missionBatches)
      .values([
        { title: 'Concurrent A', visibility: 'visible', status: 'active' },
        { title: 'Concurrent B', visibility: 'visible', status: 'active' },
      ])
      .returning();
    const seeded = await ctx.db
      .insert(missions)
      .values(Array.from({ length: 40 }, (_, i) => ({ title: `C${i}`, batchId: i % 2 ? lotA!.id : null })))
      .returning({ id: missions.id });
    const ids = seeded.map((m) => m.id);
    // 40 writers, 8 at a time on the pool's 8 connections: moves in both directions, status changes, inserts, deletes,
    // some rolled back.
    const work = ids.map((id, i) => async () => {
      const kind = i % 5;
      if (kind === 0) await ctx.db.update(missions).set({ batchId: i % 2 ? null : lotB!.id }).where(eq(missions.id, id));
      else if (kind === 1) await ctx.db.update(missions).set({ status: 'active' }).where(eq(missions.id, id));
      else if (kind === 2) await ctx.db.delete(missions).where(eq(missions.id, id));
      else if (kind === 3) await ctx.db.insert(missions).values({ title: `N${i}`, status: i % 2 ? 'active' : 'draft', batchId: i % 3 ? lotA!.id : null });
      else
        await ctx.db
          .transaction(async (tx) => {
            await tx.update(missions).set({ batchId: lotB!.id }).where(eq(missions.id, id));
            throw new Error('rollback');
          })
          .catch(() => undefined);
    });
    await runConcurrently(work, 8);
    await expectExact();

    // Transfers of the same invoices paid, refused and deleted from several connections at once (migration 0040): each
    // invoice ends knowing whether one of its transfers is « Effectué ».
    const payee = await createTechnician(ctx.db);
    const bills = await ctx.db
      .insert(invoices)
      .values(Array.from({ length: 4 }, () => ({ technicianId: payee.technician.id, status: 'Facture envoyée' })))
      .returning({ id: invoices.id });
    const moves = Array.from({ length: 24 }, (_, i) => async () => {
      const invoiceId = bills[i % bills.length]!.id;
      const [made] = await ctx.db
        .insert(transfers)
        .values({ technicianId: payee.technician.id, invoiceId, invoiceRef: `C-${i}`, status: 'Refus' })
        .returning({ id: transfers.id });
      // At most one live transfer per invoice (a unique index): a second one paid at the same time is refused.
      if (i % 3 === 0) await ctx.db.update(transfers).set({ status: 'Effectué' }).where(eq(transfers.id, made!.id)).catch(() => undefined);
      if (i % 4 === 0) await ctx.db.delete(transfers).where(eq(transfers.id, made!.id));
    });
    await runConcurrently(moves, 8);
    await expectExact();
  });

  it('counts the devices within the badge’s window under `due`, folds the days that entered it, and stays exact (decision 034)', async () => {
    const today = parisDay();
    const edge = addDaysToDay(today, ATTENTION_WINDOW_DAYS);
    const beyond = addDaysToDay(today, ATTENTION_WINDOW_DAYS + 1);
    const later = addDaysToDay(today, 45);
    const needing = async (day: string) =>
      Number(rowsOf<{ n: string | number }>(await ctx.db.execute(sql`select ${devicesNeedingAttentionCountSql(day)} as n`))[0]!.n);
    const needingDirect = async (day: string) =>
      Number(
        rowsOf<{ n: string | number }>(
          await ctx.db.execute(sql`
            select count(*) as n from devices where functional_state = 'Hors service' or (functional_state <> 'Supprimé définitivement' and
              least(battery_expiry, adult_pads_expiry, case when pediatric_pads_present then pediatric_pads_expiry end, next_maintenance_due) <= ${day}::date)`),
        )[0]!.n,
      );
    const before = await expectExact();
    const inserted = await ctx.db
      .insert(devices)
      .values([
        { serialNumber: 'W1', serialKey: 'W1', batteryExpiry: edge },
        { serialNumber: 'W2', serialKey: 'W2', batteryExpiry: beyond },
        { serialNumber: 'W3', serialKey: 'W3', adultPadsExpiry: later, nextMaintenanceDue: addDaysToDay(today, 400) },
      ])
      .returning({ id: devices.id, serialKey: devices.serialKey });
    // The window's last day is `due`, the next one its own key; the badge counts the first only.
    let kept = await expectExact();
    expect(kept['devices/due']).toBe((before['devices/due'] ?? 0) + 1);
    expect(kept[`devices/${beyond}`]).toBe(1);
    expect(kept[`devices/${later}`]).toBe(1);
    expect((await getAdminCounts(ctx.db)).parcDae).toBe(await needingDirect(edge));

    // Fifteen days later, before any fold: the days that entered the window are summed from their own keys.
    expect(await needing(later)).toBe(await needingDirect(later));
    expect(await needing(later)).toBe((await needingDirect(edge)) + 2);
    // The fold of that day moves them into `due` and changes no count.
    expect(Number(rowsOf<{ n: number }>(await ctx.db.execute(sql`select maillon_fold_due_devices(${later}) as n`))[0]!.n)).toBeGreaterThanOrEqual(2);
    kept = (await keptAndRecounted(ctx.db)).kept;
    expect(kept[`devices/${beyond}`]).toBeUndefined();
    expect(kept[`devices/${later}`]).toBeUndefined();
    expect(await needing(later)).toBe(await needingDirect(later));
    // A device leaving a folded day writes that day's key again, negative: the sum stays exact until the next fold.
    const w3 = inserted.find((d) => d.serialKey === 'W3')!;
    await ctx.db.update(devices).set({ adultPadsExpiry: addDaysToDay(today, 300) }).where(eq(devices.id, w3.id));
    expect((await keptAndRecounted(ctx.db)).kept[`devices/${later}`]).toBe(-1);
    expect(await needing(later)).toBe(await needingDirect(later));
    expect(Number(rowsOf<{ n: number }>(await ctx.db.execute(sql`select maillon_fold_due_devices(${later}) as n`))[0]!.n)).toBe(1);
    expect(await needing(later)).toBe(await needingDirect(later));
    // That was a fold ahead of time (the test's fifteen days): count again from the rows, as today.
    await ctx.db.execute(sql`select maillon_recount_rows()`);
    await expectExact();

    // Today's fold (the scheduled task) while devices are written on other connections: no deadlock, exact counts.
    const days = [today, edge, beyond, later, addDaysToDay(today, -400)];
    // 24 device writes with 6 folds among them, 8 at a time on the pool's 8 connections.
    const devicesWritten = Array.from({ length: 24 }, (_, i) => () =>
      ctx.db
        .update(devices)
        .set({ batteryExpiry: days[i % days.length]!, functionalState: i % 7 === 0 ? 'Hors service' : 'En fonctionnement' })
        .where(eq(devices.id, inserted[i % inserted.length]!.id)),
    );
    await runConcurrently(
      devicesWritten.flatMap((write, i) => (i % 4 === 3 ? [write, () => foldDueDevices(ctx.db)] : [write])),
      8,
    );
    await foldDueDevices(ctx.db);
    kept = (await keptAndRecounted(ctx.db)).kept;
    expect(Object.keys(kept).filter((key) => key.startsWith('devices/') && key.slice('devices/'.length) <= edge && /^\d/.test(key.slice('devices/'.length)))).toEqual([]);
    expect((await getAdminCounts(ctx.db)).parcDae).toBe(await needingDirect(edge));
    await ctx.db.delete(devices).where(inArray(devices.id, inserted.map((d) => d.id)));
    await expectExact();
  });
});
