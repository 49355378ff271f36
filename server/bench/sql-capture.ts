/**
 * Records the SQL each bench endpoint runs, so pgbench.ts and explain.ts measure the code as it is today rather than a
 * copy that drifts: the real app is built in-process on the bench database with a query logger, each endpoint is
 * requested once through app.inject with a session obtained by logging in through inject too.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openPostgres } from '../src/db/client';
import { SESSION_COOKIE } from '../src/plugins/access';
import { SCALE_ADMIN_EMAIL, SCALE_PASSWORD } from '../src/db/seed/scale';
import { endpointRequests, type Endpoint, type Session } from './endpoints';
import { firstLots, recruitedApplicationId } from './sessions';

export interface CapturedQuery {
  sql: string;
  params: unknown[];
}

export interface CapturedEndpoint {
  name: string;
  path: string;
  status: number;
  /** The endpoint's main SQL, in order: every query of the request except the session lookup and touch. */
  queries: CapturedQuery[];
  sessionQueries: number;
  /** The app's answer as it left for the bench's Accept-Encoding (a browser's): its bytes, Content-Encoding and type. */
  answer: { bytes: Buffer; encoding: string | null; contentType: string };
}

/** The same technician as the bench's first session (tech7: active, training done). */
export const CAPTURE_TECHNICIAN_EMAIL = 'tech7@bench.maillon.test';
/**
 * For the field work: the first of the bench's sessions (tech7, tech14… tech224, sessions.ts) with a « Recruté » lot.
 * Which technicians the scale seed recruits changes with each seed (its rows are ordered by random ids), so it is
 * looked up; null when none of them has one.
 */
async function captureRecruitEmail(db: ReturnType<typeof openPostgres>['db']): Promise<string | null> {
  const { rows } = await db.execute<{ email: string }>(sql`
    select b.email from (
      select t.id, t.email, substring(t.email from '^tech([0-9]+)@')::int as n from technicians t
      where t.email ~ '^tech[0-9]+@bench\.maillon\.test$'
    ) b
    where b.n % 7 = 0 and b.n <= 224 and exists (select 1 from applications a where a.technician_id = b.id and a.status = 'Recruté')
    order by b.n limit 1`);
  return rows[0]?.email ?? null;
}

// Every request starts with the access plugin reading (and at most once a minute sliding) its session row.
const SESSION_SQL = /^\s*(select\b[\s\S]*?\bfrom\s+"sessions"|update\s+"sessions"|delete\s+from\s+"sessions")/i;
const TRANSACTION_SQL = /^\s*(begin|commit|rollback|savepoint|release)\b/i;

export function isTransactionControl(sql: string): boolean {
  return TRANSACTION_SQL.test(sql);
}

async function login(app: FastifyInstance, email: string, address: string): Promise<Session> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    // inject's default host; the login is a cookie-less POST but keep the same-origin header a browser sends.
    headers: { origin: 'http://localhost:80' },
    remoteAddress: address,
    payload: { email, password: SCALE_PASSWORD },
  });
  const cookie = response.cookies.find((c) => c.name === SESSION_COOKIE);
  if (response.statusCode !== 200 || !cookie)
    throw new Error(`capture SQL : connexion ${email} : ${response.statusCode} ${response.body}`);
  const body = response.json<{ technician: { id: string } | null }>();
  const session = `${SESSION_COOKIE}=${cookie.value}`;
  const technicianId = body.technician?.id ?? null;
  const get = async (url: string) => {
    const answer = await app.inject({ method: 'GET', url, headers: { cookie: session } });
    return { status: answer.statusCode, body: answer.body };
  };
  // The lot whose card the load opens, the application whose field work it opens, found as loginAs finds them (sessions.ts).
  if (technicianId) return { cookie: session, technicianId, lotId: null, applicationId: await recruitedApplicationId(get, technicianId) };
  return { cookie: session, technicianId, ...(await firstLots(get)) };
}

/**
 * The SQL of each endpoint, requested once. An endpoint that does not answer 200 is left out and told to `skipped`, so
 * one broken read costs the run its own ceiling and plan, not every other's (20:50's run lost them all to one).
 */
export async function captureEndpointSql(databaseUrl: string, endpoints: Endpoint[], skipped: (message: string) => void): Promise<CapturedEndpoint[]> {
  let current: CapturedQuery[] | null = null;
  const database = openPostgres(databaseUrl, 2, {
    logQuery: (sql, params) => {
      current?.push({ sql, params: [...params] });
    },
  });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-capture-'));
  // The read cache off: each endpoint's SQL is its miss path's, even when a session's login already read the same URL
  // (the admin's firstLots reads « Page des lots »' own, which was then answered from the cache with no SQL at all).
  const config = loadConfig({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir, SEED_DEMO: 'false', LOG_LEVEL: 'silent', READ_CACHE: 'false' });
  const app = await buildApp({ config, db: database.db });
  try {
    await app.ready();
    // Addresses of their own, so these two logins never count against the bench's per-address login limit.
    const technician = await login(app, CAPTURE_TECHNICIAN_EMAIL, '10.254.0.1');
    const admin = await login(app, SCALE_ADMIN_EMAIL, '10.254.0.2');
    const recruitEmail = await captureRecruitEmail(database.db);
    const recruit = recruitEmail ? await login(app, recruitEmail, '10.254.0.3') : null;
    const captured: CapturedEndpoint[] = [];
    for (const endpoint of endpoints) {
      const session = endpoint.area === 'admin' ? admin : endpoint.recruitedOnly ? recruit : technician;
      // Only a field-work read can lack its session: none of the bench's technicians has a « Recruté » lot.
      if (!session || (endpoint.recruitedOnly && !session.applicationId)) {
        skipped(`capture SQL : ${endpoint.name} laissé de côté : aucun technicien du bench n’a de lot recruté`);
        continue;
      }
      const url = endpoint.path(session);
      const queries: CapturedQuery[] = [];
      current = queries;
      const response = await app.inject({ method: 'GET', url, headers: endpointRequests(endpoint, [session])[0]!.headers });
      current = null;
      if (response.statusCode !== 200) {
        skipped(`capture SQL : ${endpoint.name} laissé de côté : ${response.statusCode} ${response.body.slice(0, 300)}`);
        continue;
      }
      const main = queries.filter((q) => !SESSION_SQL.test(q.sql));
      captured.push({
        name: endpoint.name,
        path: url,
        status: response.statusCode,
        queries: main,
        sessionQueries: queries.length - main.length,
        answer: {
          bytes: response.rawPayload,
          encoding: typeof response.headers['content-encoding'] === 'string' ? response.headers['content-encoding'] : null,
          contentType: String(response.headers['content-type'] ?? 'application/json; charset=utf-8'),
        },
      });
    }
    return captured;
  } finally {
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
