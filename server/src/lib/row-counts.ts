import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';

/**
 * Row counts kept by the database (table `row_counts`, triggers of migration 0015, docs/decisions/027): the tables
 * counted, each row under a key (maillon_row_count_keys() in the migration):
 * - jobs, technicians, invoices, transfers, shipments: the status;
 * - missions: `<status>.unsorted` (no lot) or `<status>.lot`;
 * - mission_batches: `<status>.<visibility>`, with `.system` after it for the system lot;
 * - learning_resources: `all`;
 * - devices: `out` (Hors service), `gone` (Supprimé définitivement), else its attention date `YYYY-MM-DD` (the earliest
 *   expiry or maintenance) or `none`.
 * A statement writing one of these tables also writes `row_counts` (the change tracker adds it, so cached answers that
 * read counts are invalidated with the rows).
 */
export const COUNTED_TABLES = [
  'jobs',
  'missions',
  'mission_batches',
  'technicians',
  'invoices',
  'transfers',
  'shipments',
  'learning_resources',
  'devices',
] as const;

export const ROW_COUNTS_TABLE = 'row_counts';

/**
 * The number of lots open to applications (visible, not finished, not the system lot: isOpenLot), as a scalar
 * subquery over row_counts.
 */
export const openLotsCountSql = () =>
  sql<number>`(select coalesce(sum(n), 0) from row_counts where table_name = 'mission_batches' and key like '%.visible' and key not like 'completed.%')`.mapWith(
    Number,
  );

/** The sum of the kept counts matching `where` (conditions on table_name and key). */
async function sumCounts(db: DbOrTx, where: SQL): Promise<number> {
  const result = await db.execute<{ n: string | number | null }>(sql`select coalesce(sum(n), 0) as n from row_counts where ${where}`);
  return Number(result.rows[0]?.n ?? 0);
}

/** Every row of a counted table (the total of an unfiltered list), read from the counts. */
export function countAllRows(db: DbOrTx, table: (typeof COUNTED_TABLES)[number]): Promise<number> {
  return sumCounts(db, sql`table_name = ${table}`);
}

/**
 * The devices' keys that need attention by `attentionDay` (the Parc DAE badge and « à surveiller »): out of order, or an
 * attention date up to that day; a condition on row_counts rows.
 */
export function devicesNeedingAttentionKeys(attentionDay: string): SQL {
  return sql`(table_name = 'devices' and (key = 'out' or (key >= '0' and key <= ${attentionDay})))`;
}

/** Devices needing attention by `attentionDay`, read from the counts. */
export function countDevicesNeedingAttention(db: DbOrTx, attentionDay: string): Promise<number> {
  return sumCounts(db, devicesNeedingAttentionKeys(attentionDay));
}

/** Missions of the admin list by status and place, read from the counts (no count over the table). */
export function countMissions(db: DbOrTx, filters: { status?: string | undefined; unbatched?: boolean | undefined }): Promise<number> {
  const conditions = [sql`table_name = 'missions'`];
  if (filters.status) conditions.push(sql`split_part(key, '.', 1) = ${filters.status}`);
  if (filters.unbatched) {
    conditions.push(sql`split_part(key, '.', 2) = 'unsorted'`);
    if (!filters.status) conditions.push(sql`split_part(key, '.', 1) in ('draft', 'active')`);
  }
  return sumCounts(db, sql.join(conditions, sql` and `));
}

/** Lots of a status, the system lot left out, read from the counts (the admin's Lots and Terminés totals). */
export function countLots(db: DbOrTx, status: 'active' | 'completed'): Promise<number> {
  return sumCounts(db, sql`table_name = 'mission_batches' and split_part(key, '.', 1) = ${status} and key not like '%.system'`);
}
