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
});
