import { sql, type SQL } from 'drizzle-orm';

/** What the triggers need of a database, either driver (db/client.ts calls this module after migrating). */
interface ExecutesSql {
  execute(query: SQL): Promise<unknown>;
}

export const CHANGE_CHANNEL = 'maillon_changes';
export const CHANGE_TRIGGER = 'maillon_changes';

/**
 * Tables written often whose rows no cached answer reads: no notification for them (they would only wake every
 * instance). A table read by a cached answer must never be listed here.
 */
export const UNWATCHED_TABLES = new Set(['scheduled_tasks', 'rate_limits', 'idempotency_keys']);

/**
 * Sessions: only a removal (logout, revocation, password change, expiry purge) can make a cached session wrong; a new
 * session or the sliding of its expiry cannot (the session cache checks expiry dates on every use).
 */
const EVENTS: Record<string, string> = { sessions: 'delete or truncate' };
const DEFAULT_EVENTS = 'insert or update or delete or truncate';

/**
 * Creates the change trigger on every table of the public schema that lacks it (idempotent; run after the
 * migrations, so a table added by a later migration is watched too). Returns the tables it created a trigger on.
 */
export async function ensureChangeTriggers(db: ExecutesSql): Promise<string[]> {
  const missing = await db.execute(sql`
    select c.relname as "table"
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p')
      and not exists (select 1 from pg_trigger t where t.tgrelid = c.oid and t.tgname = ${CHANGE_TRIGGER})
    order by 1`);
  const created: string[] = [];
  for (const { table } of rowsOf<{ table: string }>(missing)) {
    if (UNWATCHED_TABLES.has(table)) continue;
    const events = EVENTS[table] ?? DEFAULT_EVENTS;
    await db.execute(
      sql.raw(
        `create or replace trigger ${CHANGE_TRIGGER} after ${events} on "${table.replace(/"/g, '""')}" ` +
          `for each statement execute function maillon_notify_change()`,
      ),
    );
    created.push(table);
  }
  return created;
}

/** node-postgres answers { rows }, PGlite's drizzle driver too; older shapes answer the array itself. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
