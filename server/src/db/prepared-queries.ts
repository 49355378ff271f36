import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client';

const byDatabase = new WeakMap<object, Map<string, unknown>>();

/**
 * A hot read built once per database and shape with Drizzle's `.prepare()`, its values as placeholders
 * (`sql.placeholder`): the query builder's work (walking the selection, writing the SQL, naming columns) is done once
 * instead of on every request (docs/decisions/030). `shape` names everything that changes the SQL text (which filters
 * are present); the built query must not depend on anything else. Kept per database object: a transaction (another
 * object, gone when it ends) builds its own once.
 */
export function preparedQuery<T>(db: DbOrTx, shape: string, build: () => T): T {
  let queries = byDatabase.get(db);
  if (!queries) byDatabase.set(db, (queries = new Map()));
  let query = queries.get(shape) as T | undefined;
  if (query === undefined) queries.set(shape, (query = build()));
  return query;
}

/** The same rendering as the databases' own (client.ts: snake_case names). */
const dialect = new PgDialect({ casing: 'snake_case' });

/** A statement written in SQL, rendered once: `execute` fills its placeholders and runs it. */
export interface PreparedSql<Row> {
  execute(values?: Record<string, unknown>): Promise<{ rows: Row[] }>;
}

/** Statements written in SQL, rendered (text and parameters, placeholders included), by shape. */
const renderedSql = new Map<string, ReturnType<PgDialect['sqlToQuery']>>();
/**
 * Shapes kept at most: a shape may carry a number a client chooses (the sites a nearest-first page reads grow with its
 * offset), so past this many a statement is rendered for its call only instead of being kept for ever.
 */
export const RENDERED_SQL_MAX = 1000;

/**
 * A hot statement written in SQL (`sql\`…\``), rendered to text once per shape, its values as
 * `sql.placeholder('name')` given to `execute` (docs/decisions/032). `db.execute(sql…)` walks every chunk of the
 * template again on each call, escaping names and numbering parameters: for the larger statements that was a fifth of
 * a request's Node time. Same rule as preparedQuery for `shape`; at most RENDERED_SQL_MAX shapes are kept. The text does not depend on the database, so a
 * transaction reuses it too; each call runs through the session of `db` (its transaction, logger, driver, change
 * tracking).
 */
export function preparedSql<Row extends Record<string, unknown>>(db: DbOrTx, shape: string, build: () => SQL): PreparedSql<Row> {
  let rendered = renderedSql.get(shape);
  if (!rendered) {
    rendered = dialect.sqlToQuery(build());
    if (renderedSql.size < RENDERED_SQL_MAX) renderedSql.set(shape, rendered);
  }
  const query = rendered;
  return {
    execute: (values) => db._.session.prepareQuery(query, undefined, undefined, false).execute(values) as Promise<{ rows: Row[] }>,
  };
}
