import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, TransactionRollbackError } from 'drizzle-orm';
import { createTestContext, type TestContext } from '../../test/helpers';
import { missionBatches } from './schema';
import { preparedSql, RENDERED_SQL_MAX } from './prepared-queries';

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
    // Rolled back on purpose: only the rollback's own error is expected, so a failed expectation inside still fails.
    await expect(
      ctx.db.transaction(async (tx) => {
        await tx.insert(missionBatches).values({ title: 'Lot C' });
        // The transaction's own session: it sees its uncommitted row.
        expect((await byTitle(tx).execute({ title: 'Lot C', n: 4 })).rows).toEqual([{ title: 'Lot C', n: 4 }]);
        tx.rollback();
      }),
    ).rejects.toThrow(TransactionRollbackError);
    expect((await byTitle(ctx.db).execute({ title: 'Lot C', n: 5 })).rows).toEqual([]);
  });

  it('keeps at most RENDERED_SQL_MAX shapes and still runs the ones past it, each with its own values', async () => {
    const shapes = Array.from({ length: RENDERED_SQL_MAX + 5 }, (_, i) => i);
    let built = 0;
    const numbered = (i: number) =>
      preparedSql<{ n: number }>(ctx.db, `test numbered ${i}`, () => {
        built += 1;
        return sql`select ${sql.placeholder('n')}::int + ${i} as n`;
      });
    for (const i of shapes) await numbered(i).execute({ n: 1 });
    const before = built;
    // A kept shape is not built again; the last one, past the bound, is built on each call.
    expect((await numbered(0).execute({ n: 2 })).rows).toEqual([{ n: 2 }]);
    expect(built).toBe(before);
    const last = shapes.at(-1)!;
    expect((await numbered(last).execute({ n: 3 })).rows).toEqual([{ n: 3 + last }]);
    expect(built).toBe(before + 1);
  });

  it('refuses a call that leaves a placeholder without a value', async () => {
    await expect(byTitle(ctx.db).execute({ title: 'Lot A' })).rejects.toThrow(/placeholder "n"/);
  });
});
