import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { cube } from '@electric-sql/pglite/contrib/cube';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { Logger } from 'drizzle-orm/logger';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema';
import { ensureChangeTriggers } from '../lib/change-feed/triggers';
import { PreparingClient } from './prepared-statements';
import { retryTransactions } from './retry-transactions';

export type Schema = typeof schema;
/** One type for both drivers: the query builder API is the same. */
export type Db = NodePgDatabase<Schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  /**
   * Opens and warms every connection of the pool before the first request (PostgreSQL; PGlite has one, in process) and
   * tells how many it opened: fewer when PostgreSQL refused some (max_connections), which later requests will retry.
   */
  open(): Promise<number>;
  close(): Promise<void>;
}

/** Finds the server package's migrations folder from both src/ (tests, tsx) and dist/ (bundle). */
export function migrationsFolder(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i += 1) {
    const candidate = path.join(dir, 'migrations');
    if (fs.existsSync(path.join(candidate, 'meta', '_journal.json'))) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error('Dossier des migrations introuvable');
}

const options = { schema, casing: 'snake_case' as const };
/** Advisory lock key held while migrating (any constant shared by every instance). */
const MIGRATION_LOCK = 4_242_001;

/**
 * Extensions the migrations use, loaded into every embedded database: trigram search; points on the unit sphere and a
 * department beside a point in one GiST index (« Les plus proches », migration 0017).
 */
export const PGLITE_EXTENSIONS = { pg_trgm, cube, btree_gist };

export function openPglite(dataDir?: string): Database {
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  const client = new PGlite(dataDir, { extensions: PGLITE_EXTENSIONS });
  const db = drizzlePglite(client, options) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: async () => {
      await migratePglite(db as never, { migrationsFolder: migrationsFolder() });
      await ensureChangeTriggers(db);
    },
    open: async () => 1,
    close: () => client.close(),
  };
}

/**
 * The writes a working day repeats most, as the warm-up runs them on one existing row each (none if the table is empty):
 * an admin's edit of a mission's observations, which its search text and so its lot's kept figures follow; a recruit's
 * device marked done or not (its lot's figures and invoice follow); a recruit's comment on the lot; an application to
 * a lot, refused as already made after the same checks and lock as a new one. Rows whose lot or application another
 * transaction holds are skipped: the connections opened together at start warm on different lots, none waiting for
 * another's.
 */
export const WARM_UP_WRITES = [
  `update missions set observations = coalesce(observations, '') || ' '
   where id = (select m.id from missions m join mission_batches b on b.id = m.batch_id
     limit 1 for no key update of m, b skip locked)`,
  `select w.outcome from (
     select d.mission_id, d.technician_id, d.is_completed
     from technician_mission_data d
     join missions m on m.id = d.mission_id
     join mission_batches b on b.id = m.batch_id and b.status <> 'completed'
     join applications a on a.batch_id = b.id and a.technician_id = d.technician_id and a.status = 'Recruté'
     limit 1 for no key update of b skip locked
   ) p cross join lateral maillon_save_device_progress(p.mission_id, p.technician_id,
     jsonb_build_object('isCompleted', not p.is_completed), true) w`,
  `select w."savedContent" from (
     select id, batch_id, technician_id from applications where status = 'Recruté' and batch_id is not null
     limit 1 for no key update skip locked
   ) a cross join lateral maillon_save_lot_comment(a.id, a.batch_id, a.technician_id, 'Préchauffage de la connexion') w`,
  `select w.outcome from (
     select a.technician_id, a.batch_id from applications a
     join mission_batches b on b.id = a.batch_id and b.visibility = 'visible' and b.status <> 'completed' and not b.is_system
     where a.status = 'En attente' limit 1 for no key update of b skip locked
   ) a cross join lateral maillon_apply(a.technician_id, a.batch_id, null, 'En attente') w`,
];

/**
 * Run on each new connection before it serves anyone (decision 087). PostgreSQL keeps a PL/pgSQL function's compiled
 * body and its statements' parse trees, and the tables' and indexes' descriptions, per session: on a new connection
 * each of these writes paid its whole cascade of triggers and functions cold (a recruit's device marked done: 45–60 ms
 * in a new session, 5–7 ms on the next call). The warm-up pays it once, in one transaction rolled back. It skips the
 * rows a writer holds (`skip locked`), waits at most 50 ms for any other lock (`lock_timeout`: past it, the rest is
 * skipped) and changes nothing: rolled back, its rows, figures and notifications are never seen. On a database not
 * migrated yet it fails, and the connection serves as it is.
 */
export const CONNECTION_WARM_UP = ['begin', "set local lock_timeout = '50ms'", ...WARM_UP_WRITES, 'rollback'].join(';\n');

async function warmUp(client: pg.ClientBase): Promise<void> {
  try {
    await client.query(CONNECTION_WARM_UP);
  } catch {
    // A failed statement leaves the transaction open: closed here, so the connection serves as a fresh one.
    await client.query('rollback').catch(() => undefined);
  }
}

/**
 * `logger` sees every query with its parameters (the bench captures each endpoint's SQL with it); none by default.
 * `preparedStatements` (default true): each parameterised query becomes a named statement, parsed once per connection
 * (db/prepared-statements.ts); false for a pooler that cannot keep them (PgBouncer in transaction mode before 1.21).
 */
export function openPostgres(url: string, max = 10, logger?: Logger, preparedStatements = true): Database {
  // Fail fast while the database is away (503 to the client) instead of queueing for ever.
  const pool = new pg.Pool({
    connectionString: url,
    max,
    // No JIT compilation (decision 039): PostgreSQL compiles any statement priced over jit_above_cost, and for the
    // app's short statements compiling took longer than running (the invoices' chips: 318 ms with it, 67 without).
    options: '-c jit=off',
    connectionTimeoutMillis: 2000,
    // Connections stay open once opened, idle or not (decision 087): each keeps what it warmed and the statements it
    // prepared (028). pg-pool closes an idle connection only above `min`.
    min: max,
    onConnect: warmUp,
    ...(preparedStatements ? { Client: PreparingClient } : {}),
  });
  // An idle client losing its connection must not crash the process.
  pool.on('error', (error) => console.error(`PostgreSQL : connexion perdue (${error.message})`));
  const db = retryTransactions(drizzlePg(pool, logger ? { ...options, logger } : options));
  return {
    db,
    kind: 'postgres',
    migrate: async () => {
      // Several instances may start at once: one migrates while the others wait for it (session advisory lock).
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
        await migratePg(db, { migrationsFolder: migrationsFolder() });
        await ensureChangeTriggers(db);
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
        client.release();
      }
    },
    open: async () => {
      const opened = await Promise.allSettled(Array.from({ length: max }, () => pool.connect()));
      let count = 0;
      for (const result of opened) {
        if (result.status === 'fulfilled') {
          result.value.release();
          count += 1;
        }
      }
      return count;
    },
    close: () => pool.end(),
  };
}

export function openDatabase(config: {
  DATABASE_URL?: string | undefined;
  DATA_DIR: string;
  PG_PREPARED_STATEMENTS?: boolean;
  PG_POOL_SIZE?: number;
}): Database {
  return config.DATABASE_URL
    ? openPostgres(config.DATABASE_URL, config.PG_POOL_SIZE, undefined, config.PG_PREPARED_STATEMENTS ?? true)
    : openPglite(path.resolve(config.DATA_DIR, 'pglite'));
}
