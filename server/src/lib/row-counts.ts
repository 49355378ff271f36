import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';

/**
 * Row counts kept by the database (table `row_counts`, triggers of migration 0015, docs/decisions/027): the tables
 * counted, each row under a key (maillon_row_count_keys() in the migration):
 * - jobs, technicians, invoices, transfers, shipments, applications (migration 0030, decision 040): the status; an
 *   invoice with a transfer « Effectué » `<status>.paid` (migration 0040, decision 051: the chips of the admin's invoices);
 * - missions: `<status>.unsorted` (no lot) or `<status>.lot`;
 * - mission_batches: `<status>.<visibility>`, with `.system` after it for the system lot;
 * - learning_resources: `all`;
 * - resource_views: the resource's id, so each key counts its readers (migration 0032, decision 040);
 * - devices: `out` (Hors service), `gone` (Supprimé définitivement), `due` when its attention date (the earliest
 *   expiry or maintenance) was within today + 30 days in France when it was written, else that date `YYYY-MM-DD`, or
 *   `none` (migration 0023, decision 034).
 * And, under table_name `open_lot_departments` (migration 0019, docs/decisions/030), the open lots of each department,
 * and under `open_lot_tags` (migration 0024, decision 036) those of each tag, kept by their own triggers on
 * mission_batches (a lot counts once for each department and each tag it names).
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
  'applications',
  'resource_views',
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

/** The lots open to applications that name `department`, as a scalar subquery over row_counts. */
export const openLotsInDepartmentCountSql = (department: string | Placeholder) =>
  sql<number>`(select coalesce(sum(n), 0)::int from row_counts where table_name = 'open_lot_departments' and key = ${department})`.mapWith(Number);

/**
 * The departments and the tags of the open lots (« Trouver des missions »' filters): the kept keys with a count above
 * zero, in the database's order (an index range of row_counts each).
 */
export const openLotFiltersSql = () => sql`
  select
    coalesce((select array_agg(key order by key) from row_counts where table_name = 'open_lot_departments' and n > 0), '{}') as departments,
    coalesce((select array_agg(key order by key) from row_counts where table_name = 'open_lot_tags' and n > 0), '{}') as tags`;

/**
 * The sum of the kept counts matching `where` (conditions on table_name and key) as a scalar subquery (an int), so a
 * list reads its total in the statement of its page (one round trip).
 */
function countsSql(where: SQL): SQL<number> {
  return sql<number>`(select coalesce(sum(n), 0)::int from row_counts where ${where})`.mapWith(Number);
}

/** The sum of the kept counts matching `where`, on its own. */
async function sumCounts(db: DbOrTx, where: SQL): Promise<number> {
  const result = await db.execute<{ n: string | number | null }>(sql`select ${countsSql(where)} as n`);
  return Number(result.rows[0]?.n ?? 0);
}

/** The readers of each learning resource that has some (resource id → count), from the kept counts. */
export async function readersByResource(db: DbOrTx): Promise<Record<string, number>> {
  const result = await db.execute<{ key: string; n: number | string }>(sql`select key, n from row_counts where table_name = 'resource_views' and n > 0`);
  return Object.fromEntries(result.rows.map((row) => [row.key, Number(row.n)]));
}

/** The readers of one learning resource, from the kept counts (0 when nobody opened it). */
export function countReadersOfResource(db: DbOrTx, resourceId: string): Promise<number> {
  return sumCounts(db, sql`table_name = 'resource_views' and key = ${resourceId}`);
}

/** The keys of every row of a counted table (a condition on row_counts). */
export function allRowsKeysSql(table: (typeof COUNTED_TABLES)[number]): SQL {
  return sql`table_name = ${table}`;
}

/** Every row of a counted table (the total of an unfiltered list), as a scalar subquery. */
export function allRowsCountSql(table: (typeof COUNTED_TABLES)[number]): SQL<number> {
  return countsSql(allRowsKeysSql(table));
}

type StatusCountedTable = 'jobs' | 'technicians' | 'invoices' | 'transfers' | 'shipments' | 'applications';

/** The keys of the rows of a table counted by status with one of `statuses` (a condition on row_counts). */
export function statusKeysSql(table: StatusCountedTable, statuses: readonly string[]): SQL {
  return sql`table_name = ${table} and key in (${sql.join(statuses.map((status) => sql`${status}`), sql`, `)})`;
}

/**
 * The rows of a table counted by status (jobs, technicians, invoices, transfers, shipments) with one of `statuses`, as a
 * scalar subquery.
 */
export function statusCountSql(table: StatusCountedTable, statuses: readonly string[]): SQL<number> {
  return countsSql(statusKeysSql(table, statuses));
}

/**
 * The rows of a table counted by status, per status (the kept counts of every status that has rows): what a screen's
 * tabs or pills count without a filter, one index range of row_counts instead of a grouping of the whole table.
 */
export async function countsByStatus(db: DbOrTx, table: StatusCountedTable): Promise<{ status: string; n: number }[]> {
  const result = await db.execute<{ status: string; n: number | string }>(
    sql`select key as status, n from row_counts where table_name = ${table} and n > 0`,
  );
  return result.rows.map((row) => ({ status: row.status, n: Number(row.n) }));
}

/** The same, the statuses given as a text[] parameter of a prepared statement (one statement for every filter). */
export function statusAnyCountSql(table: StatusCountedTable, statuses: Placeholder): SQL<number> {
  return countsSql(sql`table_name = ${table} and key = any(${statuses}::text[])`);
}

/**
 * The devices that need attention by `attentionDay` (the Parc DAE badge and « à surveiller »; today + 30 days): out of
 * order, or an attention date up to that day, as a scalar subquery. Those already within the window when they were
 * written are counted under `due` (migration 0023, decision 034); dates that entered it since are their own keys until
 * the hourly fold (foldDueDevices) moves them into `due`: three index reads, `due`, `out` and the few days of the
 * primary key's range up to the day.
 */
export function devicesNeedingAttentionCountSql(attentionDay: string | Placeholder): SQL<number> {
  // One equality each: `key in ('due', 'out')` is planned as a sequential scan of the devices' hundreds of day keys.
  const due = countsSql(sql`table_name = 'devices' and key = 'due'`);
  const out = countsSql(sql`table_name = 'devices' and key = 'out'`);
  const dated = countsSql(sql`table_name = 'devices' and key >= '0' and key <= ${attentionDay}`);
  return sql<number>`(${due} + ${out} + ${dated})`.mapWith(Number);
}

/**
 * Moves the devices' day keys within today + 30 days into `due` (maillon_fold_due_devices, migration 0023): keeps the
 * badge's range of days short whatever the history. The count is the same before and after; returns the days folded.
 */
export async function foldDueDevices(db: DbOrTx): Promise<number> {
  const result = await db.execute<{ folded: number | string }>(sql`select maillon_fold_due_devices() as folded`);
  return Number(result.rows[0]?.folded ?? 0);
}

export interface MissionCountFilters {
  status?: string | undefined;
  unbatched?: boolean | undefined;
}

/** The keys of the missions of the admin list by status and place (a condition on row_counts). */
export function missionKeysSql(filters: MissionCountFilters): SQL {
  const conditions = [sql`table_name = 'missions'`];
  if (filters.status) conditions.push(sql`split_part(key, '.', 1) = ${filters.status}`);
  if (filters.unbatched) {
    conditions.push(sql`split_part(key, '.', 2) = 'unsorted'`);
    if (!filters.status) conditions.push(sql`split_part(key, '.', 1) in ('draft', 'active')`);
  }
  return sql.join(conditions, sql` and `);
}

/** Missions of the admin list by status and place, as a scalar subquery over the counts. */
export function missionsCountSql(filters: MissionCountFilters): SQL<number> {
  return countsSql(missionKeysSql(filters));
}

/** Missions of the admin list by status and place, read from the counts (no count over the table). */
export function countMissions(db: DbOrTx, filters: MissionCountFilters): Promise<number> {
  return sumCounts(db, missionKeysSql(filters));
}

/** The keys of the lots of a status, the system lot left out (a condition on row_counts). */
export const lotKeysSql = (status: 'active' | 'completed') =>
  sql`table_name = 'mission_batches' and split_part(key, '.', 1) = ${status} and key not like '%.system'`;

/** Lots of a status, the system lot left out, as a scalar subquery over the counts. */
export function lotsCountSql(status: 'active' | 'completed'): SQL<number> {
  return countsSql(lotKeysSql(status));
}

/** Lots of a status, the system lot left out, read from the counts (the admin's Lots and Terminés totals). */
export function countLots(db: DbOrTx, status: 'active' | 'completed'): Promise<number> {
  return sumCounts(db, lotKeysSql(status));
}
