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
