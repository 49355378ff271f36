import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { applications, missionBatches, resourceViews, learningResources, technicianMissionData, missions } from './schema';
import { createTechnician, createTestContext, type TestContext } from '../../test/helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

async function expectRejected(promise: Promise<unknown>) {
  await expect(promise).rejects.toThrow();
}

describe(`migrations`, () => {
  it('create the whole data model', async () => {
    const result = await ctx.db.execute<{ table_name: string }>(
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    const names = result.rows.map((r) => r.table_name);
    for (const table of [
      'users', 'technicians', 'missions', 'mission_batches', 'revenus', 'jobs', 'applications', 'mission_visits', 'comments',
      'invoices', 'transfers', 'shipments', 'learning_resources', 'resource_views', 'technician_mission_data', 'invoices_files',
      'sessions', 'password_reset_tokens', 'email_outbox', 'stored_files', 'rate_limits', 'audit_log',
    ]) {
      expect(names, `${table} on ${ctx.kind}`).toContain(table);
    }
  });

  it('keep one application per technician per lot and one recruit per lot', async () => {
    const { technician: a } = await createTechnician(ctx.db);
    const { technician: b } = await createTechnician(ctx.db);
    const [lot] = await ctx.db.insert(missionBatches).values({ title: 'Lot', visibility: 'visible' }).returning();
    await ctx.db.insert(applications).values({ batchId: lot!.id, technicianId: a.id });
    await expectRejected(ctx.db.insert(applications).values({ batchId: lot!.id, technicianId: a.id }));
    await ctx.db.insert(applications).values({ batchId: lot!.id, technicianId: b.id, status: 'Recruté' });
    await expectRejected(
      ctx.db.update(applications).set({ status: 'Recruté' }).where(sql`${applications.technicianId} = ${a.id}`),
    );
  });

  it('keep one view per technician per resource and one progress record per mission × technician', async () => {
    const { technician } = await createTechnician(ctx.db);
    const [resource] = await ctx.db.insert(learningResources).values({ title: 'R', description: 'd', url: 'https://r.test' }).returning();
    await ctx.db.insert(resourceViews).values({ resourceId: resource!.id, technicianId: technician.id });
    await expectRejected(ctx.db.insert(resourceViews).values({ resourceId: resource!.id, technicianId: technician.id }));
    const [mission] = await ctx.db.insert(missions).values({ title: 'M' }).returning();
    await ctx.db.insert(technicianMissionData).values({ missionId: mission!.id, technicianId: technician.id });
    await expectRejected(ctx.db.insert(technicianMissionData).values({ missionId: mission!.id, technicianId: technician.id }));
  });

  it('check status values, tag count and durations', async () => {
    await expectRejected(ctx.db.insert(missionBatches).values({ title: 'x', status: 'bizarre' }));
    await expectRejected(ctx.db.insert(missionBatches).values({ title: 'x', tags: ['a', 'b', 'c'] }));
    await expectRejected(ctx.db.insert(learningResources).values({ title: 'x', description: 'd', url: 'u', duration: 0 }));
    await expectRejected(createTechnician(ctx.db, { departments: ['01', '02', '03', '04'] }));
  });

  it('leave room on the pages of mission_batches for a lot’s next version: its figures written without touching an index (decision 066)', async () => {
    // Lots of about 1.8 KB stored, under the size from which PostgreSQL compresses a row (its description is also in its
    // searched text and its list JSON): full pages hold four, and the next version of most of them no longer fits there.
    const description = () => Array.from({ length: 20 }, () => crypto.randomBytes(16).toString('hex')).join(' ').slice(0, 420);
    const lots = await ctx.db
      .insert(missionBatches)
      .values(Array.from({ length: 8 }, (_, k) => ({ title: `Lot plein ${k}`, description: description() })))
      .returning({ id: missionBatches.id });
    const updates = await ctx.db.transaction(async (tx) => {
      // This transaction's own counts, before and after: every update stayed on its page (heap-only), so no index got
      // a new entry.
      const counts = async () =>
        (
          await tx.execute<{ updated: number; hot: number }>(
            sql`select n_tup_upd::int as updated, n_tup_hot_upd::int as hot from pg_stat_xact_user_tables where relname = 'mission_batches'`,
          )
        ).rows[0]!;
      const before = await counts();
      for (const lot of lots) {
        await tx.execute(sql`update mission_batches set defibrillators_done = defibrillators_done + 1 where id = ${lot.id}`);
      }
      const after = await counts();
      return { updated: after.updated - before.updated, hot: after.hot - before.hot };
    });
    expect(updates).toEqual({ updated: lots.length, hot: lots.length });
  });
});
