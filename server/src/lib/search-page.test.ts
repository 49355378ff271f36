import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { createTestContext, type TestContext } from '../../test/helpers';
import type { DbOrTx } from '../db/client';
import { PLAN_EACH_CALL } from '../db/prepared-statements';
import { missionBatches } from '../db/schema';
import { searchPageText, whereAll } from './pagination';
import { plannedEachCall, searchedLots } from './substring-search';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

describe('searchPageText for a search planned on every call (decision 055)', () => {
  it('reads the ids with the pattern, then the page in a named statement, and answers as the single statement does', async () => {
    await ctx.db.insert(missionBatches).values(
      Array.from({ length: 30 }, (_, n) => ({ title: n % 3 === 0 ? `Secteur ${n}` : `Lot ${n}`, createdAt: new Date(Date.UTC(2026, 3, 1, 0, n)) })),
    );
    const dialect = new PgDialect();
    const texts: string[] = [];
    // The database, with the text of each statement it is sent written down.
    const logged = {
      execute: (query: SQL) => {
        texts.push(dialect.sqlToQuery(query).sql);
        return ctx.db.execute(query);
      },
    } as unknown as DbOrTx;
    const page = { limit: 5, offset: 2 };
    const pageJson = (conditions: SQL[]) => sql`coalesce((select json_agg(b.title order by b.created_at desc, b.id desc)
      from (select * from mission_batches ${whereAll(conditions)} order by created_at desc, id desc limit ${page.limit} offset ${page.offset}) b), '[]')`;
    const others = [sql`not is_system`];

    const answers: Record<string, { titles: unknown; total: number; capped: boolean }> = {};
    for (const search of ['Secteur', 'lot', 'lot 1', 'absent']) {
      expect(plannedEachCall(search), search).toBe(true);
      texts.length = 0;
      const split = await searchPageText(logged, { ...searchedLots(search, others), pageJson }, page);
      // The ids with the pattern (unnamed), then the page without it (named, its generic plan kept); nothing found, no page.
      expect(texts[0], search).toContain(PLAN_EACH_CALL);
      expect(texts.slice(1), search).toEqual(split.total === 0 ? [] : [expect.not.stringContaining(PLAN_EACH_CALL)]);
      const together = await searchPageText(ctx.db, { ...searchedLots(search, others), plannedEachCall: false, pageJson }, page);
      expect(split, search).toEqual(together);
      answers[search] = { titles: JSON.parse(split.json), total: split.total, capped: split.capped };
    }
    // Newest first, the third to the seventh: of ten « Secteur » (27, 24, 21…), and of eight « Lot 1… » (19, 17, 16…).
    expect(answers.Secteur).toEqual({ titles: ['Secteur 21', 'Secteur 18', 'Secteur 15', 'Secteur 12', 'Secteur 9'], total: 10, capped: false });
    expect(answers['lot 1']).toEqual({ titles: ['Lot 16', 'Lot 14', 'Lot 13', 'Lot 11', 'Lot 10'], total: 8, capped: false });
    expect(answers.absent).toEqual({ titles: [], total: 0, capped: false });
    // Digits give the index a fragment: one statement, as before.
    expect(plannedEachCall('SN-4417')).toBe(false);
  });
});
