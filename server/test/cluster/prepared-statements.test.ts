import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openPostgres, type Database } from '../../src/db/client';
import { PgDialect } from 'drizzle-orm/pg-core';
import { MAX_STATEMENTS_PER_CONNECTION, PLAN_EACH_CALL } from '../../src/db/prepared-statements';
import { substringMatchSql } from '../../src/lib/substring-search';
import { createTestContext, type TestContext } from '../helpers';

/**
 * Parameterised queries become named statements, parsed once per connection (db/prepared-statements.ts, decision 028).
 * PostgreSQL pass only: PGlite runs in the process and has no statements to keep. One connection, so that
 * pg_prepared_statements (which lists the current connection's) sees every statement the tests send.
 */
let ctx: TestContext;
let database: Database;

beforeAll(async () => {
  ctx = await createTestContext({}, { poolSize: 2 });
  database = openPostgres(ctx.url!, 1);
});
afterAll(async () => {
  await database?.close();
  await ctx?.close();
});

async function preparedLike(pattern: string): Promise<{ name: string; statement: string }[]> {
  const result = await database.db.execute<{ name: string; statement: string }>(
    sql`select name, statement from pg_prepared_statements where statement like ${pattern} order by name`,
  );
  return result.rows;
}

describe('the app’s sessions', () => {
  it('run without JIT compilation, which cost short statements more than running them (decision 039)', async () => {
    const result = await database.db.execute<{ jit: string }>(sql`select current_setting('jit') as jit`);
    expect(result.rows[0]?.jit).toBe('off');
  });
});

describe('named statements', () => {
  it('prepares a parameterised query once per connection and answers each call with its own values', async () => {
    const first = await database.db.execute<{ n: number }>(sql`select ${41}::int + 1 as n /* probe-a */`);
    const second = await database.db.execute<{ n: number }>(sql`select ${1}::int + 1 as n /* probe-a */`);
    expect([first.rows[0]?.n, second.rows[0]?.n]).toEqual([42, 2]);
    const prepared = await preparedLike('%probe-a%');
    expect(prepared).toHaveLength(1);
    expect(prepared[0]!.name).toMatch(/^m_[0-9a-f]{40}$/);
  });

  it('leaves a query without parameters to the simple protocol (several statements at once, as a migration sends)', async () => {
    await database.db.execute(sql.raw('create temporary table probe_b (n int); insert into probe_b values (7); /* probe-b */'));
    const result = await database.db.execute<{ n: number }>(sql`select n from probe_b where n = ${7}`);
    expect(result.rows).toEqual([{ n: 7 }]);
    expect(await preparedLike('%probe-b%')).toEqual([]);
  });

  it('prepares a single read without parameters too, which the simple protocol would parse and plan on every call', async () => {
    for (let call = 0; call < 2; call += 1) {
      const result = await database.db.execute<{ n: number }>(sql.raw('select count(*)::int as n from (values (1)) v(x) /* probe-i */'));
      expect(result.rows).toEqual([{ n: 1 }]);
    }
    const prepared = await preparedLike('%probe-i%');
    expect(prepared).toHaveLength(1);
    expect(prepared[0]!.name).toMatch(/^m_[0-9a-f]{40}$/);
    // A write without parameters, or a read ending with `;`, keeps the simple protocol.
    await database.db.execute(sql.raw('create temporary table probe_j (n int) /* probe-j */'));
    await database.db.execute(sql.raw('select 1 as n /* probe-j */;'));
    expect(await preparedLike('%probe-j%')).toEqual([]);
  });

  it('keeps the connection usable after a statement that fails to parse, and reports the same error each time', async () => {
    const failing = () => database.db.execute(sql`select ${1}::int from no_such_table /* probe-c */`);
    await expect(failing()).rejects.toThrow();
    const again = await failing().catch((error: unknown) => error);
    expect(String((again as { cause?: unknown }).cause ?? again)).toContain('no_such_table');
    const ok = await database.db.execute<{ n: number }>(sql`select ${3}::int as n /* probe-c ok */`);
    expect(ok.rows).toEqual([{ n: 3 }]);
  });

  it('works inside a transaction that rolls back, and the statement is there for the next one', async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`select ${1}::int as n /* probe-d */`);
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    const result = await database.db.transaction((tx) => tx.execute<{ n: number }>(sql`select ${5}::int as n /* probe-d */`));
    expect(result.rows).toEqual([{ n: 5 }]);
    expect(await preparedLike('%probe-d%')).toHaveLength(1);
  });

  it('leaves a text holding PLAN_EACH_CALL unnamed: a search of words is planned with its pattern on every call (decision 042)', async () => {
    const search = substringMatchSql(sql`lower(x)`, 'Maintenance');
    const matches: Record<string, number> = { a: 2, zz: 1, maint: 1 };
    for (const word of ['a', 'zz', 'maint', 'a', 'zz', 'a', 'a', 'maint']) {
      const result = await database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from (values ('Maintenance'), ('Zz top'), ('Avant')) v(x) where ${substringMatchSql(sql`lower(x)`, word)} /* probe-g */`,
      );
      expect(result.rows[0]?.n, word).toBe(matches[word]);
    }
    expect(await preparedLike('%probe-g%')).toEqual([]);
    // A search holding digits keeps its statement named: its fragment is a scalar subquery, one generic plan serves.
    await database.db.execute(sql`select count(*) from (values ('SN 1234')) v(x) where ${substringMatchSql(sql`lower(x)`, 'sn 1234')} /* probe-h */`);
    expect(await preparedLike('%probe-h%')).toHaveLength(1);
    expect(new PgDialect().sqlToQuery(search).sql).toContain(PLAN_EACH_CALL);
  });

  it(`prepares at most ${MAX_STATEMENTS_PER_CONNECTION} distinct texts per connection; the others still run, unnamed`, async () => {
    const extra = 20;
    for (let i = 0; i < MAX_STATEMENTS_PER_CONNECTION + extra; i += 1) {
      const result = await database.db.execute<{ n: number }>(sql`select ${sql.raw(String(i))} + ${1}::int as n /* probe-e */`);
      expect(result.rows[0]?.n).toBe(i + 1);
    }
    const named = await database.db.execute<{ n: number }>(sql.raw(`select count(*)::int as n from pg_prepared_statements where name like 'm\\_%'`));
    expect(named.rows[0]?.n).toBe(MAX_STATEMENTS_PER_CONNECTION);
    // An already prepared text is still used by name once the connection is full.
    const before = await preparedLike('%probe-a%');
    await database.db.execute(sql`select ${2}::int + 1 as n /* probe-a */`);
    expect(await preparedLike('%probe-a%')).toEqual(before);
  });
});
