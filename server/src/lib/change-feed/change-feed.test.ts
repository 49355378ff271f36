import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { missionBatches } from '../../db/schema';
import { as, createTechnician, createTestContext, login, TEST_ORIGIN, type TestContext } from '../../../test/helpers';
import { UNWATCHED_TABLES } from './triggers';

/**
 * The change feed: writes the driver-level tracker cannot see (a function's writes, another connection) still
 * invalidate what an app keeps in memory. Several instances on one PostgreSQL database: test/cluster/.
 */
let ctx: TestContext;
let technicianId: string;
let techCookie: string;
let lotId: string;
const lotsUrl = () => `/api/mission-batches/available-for-application?technicianId=${technicianId}`;
const titles = (body: string) => (JSON.parse(body) as { title: string }[]).map((lot) => lot.title);

beforeAll(async () => {
  ctx = await createTestContext({ READ_CACHE: true });
  const { technician } = await createTechnician(ctx.db);
  technicianId = technician.id;
  techCookie = await login(ctx.app, technician.email);
  const [lot] = await ctx.db
    .insert(missionBatches)
    .values({ title: 'Lot 0', visibility: 'visible', departments: ['75'] })
    .returning();
  lotId = lot!.id;
  // A write the statement parser cannot attribute to a table: only the database's notification reveals it.
  await ctx.db.execute(
    sql.raw(
      `create function rename_lot(lot uuid, name text) returns void language sql as $$ update mission_batches set title = name where id = lot $$`,
    ),
  );
});
afterAll(async () => {
  await ctx.close();
});

it('every table but the unwatched ones carries the change trigger', async () => {
  const result = await ctx.db.execute<{ table: string; watched: boolean }>(sql`
    select c.relname as "table", exists (select 1 from pg_trigger t where t.tgrelid = c.oid and t.tgname = 'maillon_changes') as watched
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind = 'r'`);
  expect(result.rows.length).toBeGreaterThan(20);
  for (const row of result.rows) expect(row.watched, row.table).toBe(!UNWATCHED_TABLES.has(row.table));
});

it('a write made inside a database function invalidates the cached answer (heard through the notification)', async () => {
  expect(ctx.app.changeFeed?.kind).toBe(ctx.kind);
  expect(ctx.app.changeFeed?.listening).toBe(true);
  await ctx.app.changeFeed!.caughtUp();
  const first = await as(ctx.app, techCookie)({ method: 'GET', url: lotsUrl() });
  const hits = ctx.app.readCache.hits;
  await as(ctx.app, techCookie)({ method: 'GET', url: lotsUrl() });
  expect(ctx.app.readCache.hits).toBe(hits + 1);
  expect(titles(first.body)).toEqual(['Lot 0']);
  await ctx.db.execute(sql`select rename_lot(${lotId}, 'Lot renommé par une fonction')`);
  await expect
    .poll(async () => titles((await as(ctx.app, techCookie)({ method: 'GET', url: lotsUrl() })).body), {
      timeout: 2_000,
      interval: 10,
    })
    .toEqual(['Lot renommé par une fonction']);
});

it('with READ_CACHE=false SESSION_CACHE=false there is no feed and nothing is kept', async () => {
  const other = await createTestContext({ READ_CACHE: false, SESSION_CACHE: false });
  try {
    expect(other.app.changeFeed).toBeNull();
  } finally {
    await other.close();
  }
  // The origin header keeps the CSRF check satisfied for the helpers above.
  expect(TEST_ORIGIN).toMatch(/^http/);
});

it('caughtUp() resolves once the changes committed before it have been heard', async () => {
  const before = ctx.app.changes.current();
  await ctx.db.execute(sql`select rename_lot(${lotId}, 'Lot du marqueur')`);
  await ctx.app.changeFeed!.caughtUp();
  // The function's write is known only through its notification: heard by now.
  expect(ctx.app.changes.changedSince(['mission_batches'], before)).toBe(true);
});
