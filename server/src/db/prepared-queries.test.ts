import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestContext, type TestContext } from '../../test/helpers';
import { missionBatches } from './schema';
import { preparedSql } from './prepared-queries';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

describe('preparedSql', () => {
  const byTitle = (db: TestContext['db']) =>
    preparedSql<{ title: string; n: number }>(db, 'test lots by title', () =>
      sql`select title, ${sql.placeholder('n')}::int as n from mission_batches where title = ${sql.placeholder('title')} order by title`,
    );

  it('renders once and takes every value from the call, on the database and inside a transaction', async () => {
    await ctx.db.insert(missionBatches).values([{ title: 'Lot A' }, { title: 'Lot B' }]);
    expect((await byTitle(ctx.db).execute({ title: 'Lot A', n: 1 })).rows).toEqual([{ title: 'Lot A', n: 1 }]);
    // The same shape with other values: nothing of the first call is kept in the text.
    expect((await byTitle(ctx.db).execute({ title: 'Lot B', n: 2 })).rows).toEqual([{ title: 'Lot B', n: 2 }]);
    expect((await byTitle(ctx.db).execute({ title: 'Lot C', n: 3 })).rows).toEqual([]);
    await ctx.db.transaction(async (tx) => {
      await tx.insert(missionBatches).values({ title: 'Lot C' });
      // The transaction's own session: it sees its uncommitted row.
      expect((await byTitle(tx).execute({ title: 'Lot C', n: 4 })).rows).toEqual([{ title: 'Lot C', n: 4 }]);
      tx.rollback();
    }).catch(() => undefined);
    expect((await byTitle(ctx.db).execute({ title: 'Lot C', n: 5 })).rows).toEqual([]);
  });

  it('refuses a call that leaves a placeholder without a value', async () => {
    await expect(byTitle(ctx.db).execute({ title: 'Lot A' })).rejects.toThrow(/placeholder "n"/);
  });
});
