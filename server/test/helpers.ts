import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, inject } from 'vitest';
import { testConfig, type Env } from '../src/config';
import { openPostgres, PGLITE_EXTENSIONS, type Db } from '../src/db/client';
import * as schema from '../src/db/schema';
import { buildApp } from '../src/app';
import { hashPassword } from '../src/lib/passwords';

export const TEST_ORIGIN = 'http://localhost:80';
export const TEST_PASSWORD = 'Un-Mot-De-Passe-Solide';
let passwordHash: Promise<string> | undefined;
const cachedHash = () => (passwordHash ??= hashPassword(TEST_PASSWORD));

export interface TestContext {
  app: FastifyInstance;
  db: Db;
  kind: 'pglite' | 'postgres';
  dataDir: string;
  /** The PostgreSQL database's URL (null on PGlite): a second app or process can open the same database. */
  url: string | null;
  close(): Promise<void>;
}

/**
 * Runs `tasks` concurrently, `width` at a time (a task starts as soon as one ends). Tests of concurrent writes use the
 * pool's size: more tasks than connections only queue for a connection, and on a loaded machine (CI), behind writers
 * waiting for each other's locks, that queue went past the pool's 2 s limit (« timeout exceeded when trying to connect »).
 */
export async function runConcurrently(tasks: (() => Promise<unknown>)[], width: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < tasks.length; i = next++) await tasks[i]!();
  };
  await Promise.all(Array.from({ length: Math.min(width, tasks.length) }, worker));
}

/** A fresh database (PGlite cloned from the migrated template, or a new PostgreSQL database) and the real app. */
export async function createTestContext(env: Partial<Env> = {}, options: { poolSize?: number } = {}): Promise<TestContext> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'maillon-data-'));
  const config = testConfig({ DATA_DIR: dataDir, ...env });
  let db: Db;
  let closeDb: () => Promise<void>;
  let kind: TestContext['kind'];
  let databaseUrl: string | null = null;
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const name = `maillon_t_${crypto.randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const target = new URL(url);
    target.pathname = `/${name}`;
    databaseUrl = target.toString();
    const database = openPostgres(databaseUrl, options.poolSize ?? 4);
    await database.migrate();
    db = database.db;
    kind = 'postgres';
    closeDb = async () => {
      await database.close();
      const dropper = new pg.Client({ connectionString: url });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    };
  } else {
    const template = fs.readFileSync(inject('pgliteTemplate'));
    const client = new PGlite({ loadDataDir: new Blob([template]), extensions: PGLITE_EXTENSIONS });
    db = drizzlePglite(client, { schema, casing: 'snake_case' }) as unknown as Db;
    kind = 'pglite';
    closeDb = () => client.close();
  }
  const app = await buildApp({ config, db });
  await app.ready();
  return {
    app,
    db,
    kind,
    dataDir,
    url: databaseUrl,
    close: async () => {
      await app.close();
      await closeDb();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function createAdmin(db: Db, email = `admin-${crypto.randomUUID()}@maillon.test`) {
  const [user] = await db
    .insert(schema.users)
    .values({ email, passwordHash: await cachedHash(), role: 'admin' })
    .returning();
  return user!;
}

export async function createTechnician(
  db: Db,
  overrides: Partial<typeof schema.technicians.$inferInsert> = {},
) {
  const email = overrides.email ?? `tech-${crypto.randomUUID()}@maillon.test`;
  const [user] = await db
    .insert(schema.users)
    .values({ email, passwordHash: await cachedHash(), role: 'technician' })
    .returning();
  const [technician] = await db
    .insert(schema.technicians)
    .values({
      firstName: 'Jeanne',
      lastName: 'Martin',
      departments: ['75'],
      status: 'active',
      ...overrides,
      email,
      userId: user!.id,
    })
    .returning();
  return { user: user!, technician: technician! };
}

/** Logs in through the real route and returns the cookie header for later requests. */
export async function login(app: FastifyInstance, email: string, password = TEST_PASSWORD): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { origin: TEST_ORIGIN },
    payload: { email, password },
  });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  const cookie = response.cookies.find((c) => c.name === 'maillon_session');
  if (!cookie) throw new Error('no session cookie');
  return `maillon_session=${cookie.value}`;
}

/** app.inject with a session cookie and a same-origin header. */
export function as(app: FastifyInstance, cookie: string | null) {
  return (options: InjectOptions): Promise<LightMyRequestResponse> =>
    app.inject({
      ...options,
      headers: { origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}), ...(options.headers ?? {}) },
    });
}

export async function countRows(db: Db, table: string): Promise<number> {
  const result = await db.execute<{ n: number }>(sql.raw(`select count(*)::int as n from ${table}`));
  return Number(result.rows[0]?.n ?? 0);
}

/**
 * The usual start of an API test file: a fresh database and the real app for the file, with the administrator signed
 * in (`beforeAll`, closed in `afterAll`); `use` receives them once they exist.
 */
export function withAdminApp(use: (app: { ctx: TestContext; admin: ReturnType<typeof as> }) => void, env: Partial<Env> = {}, options: { poolSize?: number } = {}): void {
  let ctx: TestContext | undefined;
  beforeAll(async () => {
    ctx = await createTestContext(env, options);
    use({ ctx, admin: as(ctx.app, await login(ctx.app, (await createAdmin(ctx.db)).email)) });
  });
  afterAll(async () => {
    await ctx?.close();
  });
}
