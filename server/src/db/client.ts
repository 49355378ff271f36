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
    close: () => client.close(),
  };
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
    idleTimeoutMillis: 30_000,
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
