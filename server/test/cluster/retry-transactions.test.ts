import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestContext, type TestContext } from '../helpers';

/**
 * Two transactions locking two rows in opposite orders: PostgreSQL breaks the deadlock by aborting one (40P01), and
 * db.transaction runs that one again, so both callers get their result. (PostgreSQL pass only: PGlite has one
 * connection, where transactions cannot interleave.)
 */
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({}, { poolSize: 4 });
  await ctx.db.execute(sql`create table retry_probe (id int primary key, n int not null)`);
  await ctx.db.execute(sql`insert into retry_probe values (1, 0), (2, 0)`);
});
afterAll(() => ctx?.close());

describe('transactions aborted by a deadlock', () => {
  it('are run again: both writers finish and each write is applied once', async () => {
    let bothLocked: () => void = () => undefined;
    const firstLocks = new Promise<void>((resolve) => {
      let count = 0;
      bothLocked = () => {
        count += 1;
        if (count === 2) resolve();
      };
    });
    let runs = 0;
    const writer = (first: number, second: number) =>
      ctx.db.transaction(async (tx) => {
        runs += 1;
        await tx.execute(sql`update retry_probe set n = n + 1 where id = ${first}`);
        bothLocked();
        await firstLocks;
        await tx.execute(sql`update retry_probe set n = n + 1 where id = ${second}`);
        return first;
      });

    const results = await Promise.all([writer(1, 2), writer(2, 1)]);

    expect(results).toEqual([1, 2]);
    expect(runs).toBe(3);
    const rows = await ctx.db.execute<{ id: number; n: number }>(sql`select id, n from retry_probe order by id`);
    expect(rows.rows).toEqual([
      { id: 1, n: 2 },
      { id: 2, n: 2 },
    ]);
  });

  it('are not run again for any other error', async () => {
    let runs = 0;
    await expect(
      ctx.db.transaction(async (tx) => {
        runs += 1;
        await tx.execute(sql`insert into retry_probe values (1, 0)`);
      }),
    ).rejects.toThrow();
    expect(runs).toBe(1);
  });
});
