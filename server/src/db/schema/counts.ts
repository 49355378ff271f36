import { bigint, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/**
 * Row counts kept by the database itself (decision 027): for each counted table, the number of its rows per key (a
 * status, a status and whether the mission is in a lot, a device's attention date…). Statement-level triggers
 * (`maillon_count_rows`, migration 0015) add each statement's inserted rows and take away its deleted ones, in the
 * writer's transaction, whatever wrote them (API, job, psql, another instance); a read of a count is an indexed lookup
 * of a few rows instead of a count over the table. The tables and keys: COUNTED_TABLES in lib/row-counts.ts.
 */
export const rowCounts = pgTable(
  'row_counts',
  {
    tableName: text().notNull(),
    key: text().notNull(),
    n: bigint({ mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tableName, t.key] })],
);
