import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import parsePrometheusTextFormat, { type ParsedFamily } from 'parse-prometheus-text-format';
import type { FastifyInstance } from 'fastify';
import { errorResponseSchema } from '@maillon/common/schemas/errors';
import { healthSchema, readinessSchema } from '@maillon/common/schemas/health';
import { buildApp } from '../../app';
import { testConfig, type Env } from '../../config';
import { migrationsFolder } from '../../db/client';
import { emailOutbox } from '../../db/schema';
import { enqueueEmail } from '../../lib/outbox';
import { READINESS_TIMEOUT_MS } from '../../plugins/observability';
import { as, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';

const METRICS_TOKEN = 'jeton-des-metriques-0123456789';
const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder(), 'meta', '_journal.json'), 'utf8')) as {
  entries: { tag: string; when: number }[];
};

let ctx: TestContext;
/** The same database behind other configurations. */
let withMetrics: FastifyInstance;
let behindProxy: FastifyInstance;

async function appOn(env: Partial<Env>): Promise<FastifyInstance> {
  const app = await buildApp({ config: testConfig({ DATA_DIR: ctx.dataDir, ...env }), db: ctx.db });
  await app.ready();
  return app;
}

/** A sample value as Prometheus reads it (Go's ParseFloat: NaN and Inf in any case; prom-client writes "Nan"). */
const FLOAT = /^(?:[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|[+-]?inf(?:inity)?|nan)$/i;

/**
 * The exposition read by parse-prometheus-text-format (it throws on a malformed line), then what it lets through
 * checked too: known types only, every value a Prometheus float, no timestamps.
 */
function parseExposition(text: string): ParsedFamily[] {
  const families = parsePrometheusTextFormat(text);
  expect(families.length).toBeGreaterThan(0);
  for (const { name, type, metrics } of families) {
    expect(['COUNTER', 'GAUGE', 'HISTOGRAM', 'SUMMARY'], name).toContain(type);
    for (const sample of metrics) {
      expect(sample, name).not.toHaveProperty('timestamp_ms');
      const values = [
        sample.value,
        sample.count,
        sample.sum,
        ...Object.values(sample.buckets ?? {}),
        ...Object.values(sample.quantiles ?? {}),
      ];
      for (const value of values.filter((v) => v !== undefined)) expect(value, name).toMatch(FLOAT);
    }
  }
  return families;
}

/**
 * One histogram's series with their labels. parse-prometheus-text-format folds the series of a labelled histogram into
 * one (it keeps the last bucket values and drops the labels), so its _bucket/_count/_sum lines are read again as plain
 * samples by the same parser.
 */
function histogramSeries(text: string, name: string): { buckets: ParsedFamily; count: ParsedFamily; sum: ParsedFamily } {
  // The parser starts a family at each change of name: the lines are grouped by name first.
  const lines = ['bucket', 'count', 'sum'].flatMap((suffix) =>
    text.split('\n').filter((line) => line.startsWith(`${name}_${suffix}{`)),
  );
  const families = parsePrometheusTextFormat(`${lines.join('\n')}\n`);
  return {
    buckets: family(families, `${name}_bucket`),
    count: family(families, `${name}_count`),
    sum: family(families, `${name}_sum`),
  };
}

async function scrapeText(app: FastifyInstance): Promise<string> {
  const response = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.body;
}

const scrape = async (app: FastifyInstance) => parseExposition(await scrapeText(app));

function family(families: ParsedFamily[], name: string): ParsedFamily {
  const found = families.find((f) => f.name === name);
  if (!found) throw new Error(`metric ${name} absent`);
  return found;
}

const gaugeValue = (families: ParsedFamily[], name: string) => Number(family(families, name).metrics[0]?.value);

/** A new embedded database starts (WebAssembly, data files) on its first query: over 2 s on a busy machine. */
const warmUp = (db: TestContext['db']) => db.execute(sql`select 1`);

beforeAll(async () => {
  ctx = await createTestContext();
  await warmUp(ctx.db);
  // The read cache on, so that its counters have something to report.
  withMetrics = await appOn({ METRICS_TOKEN, READ_CACHE: true });
  behindProxy = await appOn({ TRUST_PROXY: true });
});
afterAll(async () => {
  await withMetrics?.close();
  await behindProxy?.close();
  await ctx?.close();
});

describe('GET /healthz', () => {
  it('answers 200 { status: "ok" } without a session, outside /api, never cached', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(healthSchema.parse(response.json())).toEqual({ status: 'ok' });
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('GET /readyz', () => {
  it('answers 200 on a migrated database, naming each check it ran', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(200);
    const body = readinessSchema.parse(response.json());
    expect(body.status).toBe('ok');
    expect(body.checks.map((c) => [c.name, c.ok])).toEqual([
      ['base de données', true],
      ['stockage des fichiers', true],
      ['migrations', true],
    ]);
  });

  it('answers 503 naming the migration that is not applied, then 200 once it is back', async () => {
    const last = journal.entries.at(-1)!;
    const removed = await ctx.db.execute<{ id: number; hash: string; created_at: string }>(
      sql`delete from drizzle.__drizzle_migrations where created_at = ${last.when} returning id, hash, created_at`,
    );
    expect(removed.rows).toHaveLength(1);
    try {
      const response = await ctx.app.inject({ method: 'GET', url: '/readyz' });
      expect(response.statusCode).toBe(503);
      const body = readinessSchema.parse(response.json());
      expect(body).toMatchObject({ status: 'indisponible', code: 'NOT_READY', requestId: response.headers['x-request-id'] });
      expect(body.message).toBe(`Instance non prête : migrations (1 migration(s) non appliquée(s) : ${last.tag})`);
      expect(body.checks.find((c) => c.name === 'base de données')?.ok).toBe(true);
    } finally {
      const row = removed.rows[0]!;
      await ctx.db.execute(
        sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${row.id}, ${row.hash}, ${row.created_at})`,
      );
    }
    expect((await ctx.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('answers 503 naming a registered check that fails, with its French message', async () => {
    const app = await appOn({});
    try {
      let failing = true;
      app.addReadinessCheck('stockage', async () => {
        if (failing) throw new Error('le stockage ne répond pas');
      });
      const response = await app.inject({ method: 'GET', url: '/readyz' });
      expect(response.statusCode).toBe(503);
      const body = readinessSchema.parse(response.json());
      expect(body.message).toBe('Instance non prête : stockage (le stockage ne répond pas)');
      expect(body.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['stockage']);
      expect(() => app.addReadinessCheck('stockage', async () => {})).toThrow(/déjà déclaré/);
      failing = false;
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('answers 503 within the timeout when a check hangs', async () => {
    const app = await appOn({});
    try {
      app.addReadinessCheck('file d’attente', () => new Promise<void>(() => {}));
      const started = Date.now();
      const response = await app.inject({ method: 'GET', url: '/readyz' });
      const elapsed = Date.now() - started;
      expect(response.statusCode).toBe(503);
      expect(elapsed).toBeGreaterThanOrEqual(READINESS_TIMEOUT_MS - 50);
      expect(elapsed).toBeLessThan(READINESS_TIMEOUT_MS + 2000);
      const body = readinessSchema.parse(response.json());
      expect(body.message).toBe('Instance non prête : file d’attente (pas de réponse en 2 s)');
      expect(body.checks.find((c) => c.name === 'base de données')?.ok).toBe(true);
    } finally {
      await app.close();
    }
  });

  it('answers 503 naming the database when it is away (PGlite closed, PostgreSQL database dropped)', async () => {
    const other = await createTestContext();
    let closed = false;
    try {
      await warmUp(other.db);
      expect((await other.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      if (other.kind === 'pglite') {
        await (other.db as unknown as { $client: { close(): Promise<void> } }).$client.close();
        closed = true;
      } else {
        const name = (await other.db.execute<{ name: string }>(sql`select current_database() as name`)).rows[0]!.name;
        const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await admin.connect();
        await admin.query(`drop database ${name} with (force)`);
        await admin.end();
      }
      const started = Date.now();
      const response = await other.app.inject({ method: 'GET', url: '/readyz' });
      expect(Date.now() - started).toBeLessThan(READINESS_TIMEOUT_MS + 2000);
      expect(response.statusCode).toBe(503);
      const body = readinessSchema.parse(response.json());
      expect(body.message).toMatch(/^Instance non prête : base de données \(la base de données ne répond pas\)/);
      expect(body.checks.find((c) => c.name === 'base de données')).toMatchObject({
        ok: false,
        message: 'la base de données ne répond pas',
      });
      // The process itself is alive.
      expect((await other.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      if (closed) {
        await other.app.close();
        fs.rmSync(other.dataDir, { recursive: true, force: true });
      } else {
        await other.close();
      }
    }
  });
});

describe('GET /metrics', () => {
  it('is not served without METRICS_TOKEN: 404, never the web app', async () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'maillon-dist-'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    const web = await buildApp({ config: testConfig({ DATA_DIR: ctx.dataDir, WEB_DIST_DIR: dist }), db: ctx.db, serveWeb: true });
    try {
      const metrics = await web.inject({ method: 'GET', url: '/metrics' });
      expect(metrics.statusCode).toBe(404);
      expect(errorResponseSchema.parse(metrics.json())).toMatchObject({ code: 'NOT_FOUND' });
      expect((await web.inject({ method: 'GET', url: '/readyz' })).headers['content-type']).toMatch(/^application\/json/);
      expect((await web.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
      const page = await web.inject({ method: 'GET', url: '/technician/dashboard' });
      expect(page.headers['content-type']).toMatch(/^text\/html/);
    } finally {
      await web.close();
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });

  it('refuses a missing or wrong bearer token with 401', async () => {
    for (const authorization of [undefined, 'Bearer mauvais-jeton-0123456789', METRICS_TOKEN, `Bearer ${METRICS_TOKEN}x`]) {
      const response = await withMetrics.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(errorResponseSchema.parse(response.json())).toMatchObject({
        code: 'UNAUTHENTICATED',
        requestId: response.headers['x-request-id'],
      });
      expect(response.body).not.toContain('http_request_duration_seconds');
    }
  });

  it('times each request by route pattern, never by its raw URL', async () => {
    const { technician } = await createTechnician(ctx.db);
    const admin = await createAdmin(ctx.db);
    const api = as(withMetrics, await login(withMetrics, admin.email));
    for (let i = 0; i < 3; i += 1)
      expect((await api({ method: 'GET', url: `/api/technicians/${technician.id}` })).statusCode).toBe(200);
    expect((await api({ method: 'GET', url: '/api/technicians/00000000-0000-4000-8000-000000000000' })).statusCode).toBe(404);

    const text = await scrapeText(withMetrics);
    expect(text).not.toContain(technician.id);
    expect(family(parseExposition(text), 'http_request_duration_seconds').type).toBe('HISTOGRAM');
    const { buckets, count, sum } = histogramSeries(text, 'http_request_duration_seconds');
    const series = { method: 'GET', route: '/api/technicians/:id', status_code: '200' };
    expect(count.metrics).toContainEqual({ labels: series, value: '3' });
    expect(count.metrics).toContainEqual({ labels: { ...series, status_code: '404' }, value: '1' });
    expect(count.metrics.find((m) => m.labels?.route === '/api/auth/login')?.labels?.method).toBe('POST');
    expect(buckets.metrics).toContainEqual({ labels: { ...series, le: '+Inf' }, value: '3' });
    const seriesSum = sum.metrics.find((m) => m.labels?.route === series.route && m.labels.status_code === '200');
    expect(Number(seriesSum?.value)).toBeGreaterThan(0);
    // Cumulative buckets: never decreasing up to +Inf.
    const ladder = buckets.metrics
      .filter((m) => m.labels?.route === series.route && m.labels.status_code === '200')
      .map((m) => Number(m.value));
    expect(ladder).toEqual([...ladder].sort((a, b) => a - b));
    expect(count.metrics.every((m) => !/[0-9a-f]{8}-[0-9a-f]{4}/.test(m.labels?.route ?? ''))).toBe(true);
  });

  it('reports the outbox backlog: pending and failed e-mails and the age of the oldest pending one', async () => {
    await ctx.db.delete(emailOutbox);
    let families = await scrape(withMetrics);
    expect(gaugeValue(families, 'maillon_email_outbox_pending')).toBe(0);
    expect(gaugeValue(families, 'maillon_email_outbox_oldest_pending_age_seconds')).toBe(0);

    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1)
      ids.push(await enqueueEmail(ctx.db, { kind: 'test', to: `a${i}@maillon.test`, subject: 'Objet', text: 'Texte' }));
    await ctx.db
      .update(emailOutbox)
      .set({ createdAt: sql`now() - interval '90 seconds'` })
      .where(eq(emailOutbox.id, ids[0]!));
    const failed = await enqueueEmail(ctx.db, { kind: 'test', to: 'b@maillon.test', subject: 'Objet', text: 'Texte' });
    await ctx.db
      .update(emailOutbox)
      .set({ status: 'failed', createdAt: sql`now() - interval '1 day'` })
      .where(eq(emailOutbox.id, failed));
    const sent = await enqueueEmail(ctx.db, { kind: 'test', to: 'c@maillon.test', subject: 'Objet', text: 'Texte' });
    await ctx.db
      .update(emailOutbox)
      .set({ status: 'sent', createdAt: sql`now() - interval '2 days'` })
      .where(eq(emailOutbox.id, sent));

    families = await scrape(withMetrics);
    expect(family(families, 'maillon_email_outbox_pending').type).toBe('GAUGE');
    expect(gaugeValue(families, 'maillon_email_outbox_pending')).toBe(3);
    expect(gaugeValue(families, 'maillon_email_outbox_failed')).toBe(1);
    const age = gaugeValue(families, 'maillon_email_outbox_oldest_pending_age_seconds');
    expect(age).toBeGreaterThanOrEqual(90);
    expect(age).toBeLessThan(120);
    await ctx.db.delete(emailOutbox);
  });

  it('exposes event-loop lag, process metrics, the read cache and, on PostgreSQL, the pool', async () => {
    await scrape(withMetrics);
    // The lag is measured by a setImmediate after a scrape, reported by the next one.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const families = await scrape(withMetrics);
    for (const name of [
      'nodejs_eventloop_lag_seconds',
      'nodejs_eventloop_lag_p99_seconds',
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(Number.isFinite(gaugeValue(families, name)), name).toBe(true);
    }
    expect(gaugeValue(families, 'nodejs_eventloop_lag_seconds')).toBeGreaterThan(0);
    expect(family(families, 'maillon_read_cache_hits_total').type).toBe('COUNTER');
    expect(gaugeValue(families, 'maillon_read_cache_hits_total')).toBe(withMetrics.readCache.hits);
    expect(gaugeValue(families, 'maillon_read_cache_misses_total')).toBe(withMetrics.readCache.misses);
    const pool = families.find((f) => f.name === 'maillon_db_pool_connections');
    if (ctx.kind === 'postgres') {
      expect(Number(pool?.metrics[0]?.value)).toBeGreaterThan(0);
      expect(gaugeValue(families, 'maillon_db_pool_waiting_requests')).toBe(0);
      expect(gaugeValue(families, 'maillon_db_pool_max_connections')).toBe(4);
    } else {
      expect(pool).toBeUndefined();
    }
  });

  it('is served without a token on METRICS_PORT (127.0.0.1), started and stopped with the app', async () => {
    const port = await freePort();
    const app = await appOn({ METRICS_PORT: port });
    let closed = false;
    try {
      expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
      const response = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(response.status).toBe(200);
      const families = parseExposition(await response.text());
      expect(family(families, 'nodejs_eventloop_lag_seconds').type).toBe('GAUGE');
      expect((await fetch(`http://127.0.0.1:${port}/autre`)).status).toBe(404);
      await app.close();
      closed = true;
      await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
    } finally {
      if (!closed) await app.close();
    }
  });
});

describe('request ids', () => {
  it('puts the X-Request-Id of the answer in every error body', async () => {
    const notFound = await ctx.app.inject({ method: 'GET', url: '/api/nulle-part' });
    const unauthenticated = await ctx.app.inject({ method: 'GET', url: '/api/admin/settings' });
    const invalid = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { origin: 'http://localhost:80' },
      payload: { email: 'x' },
    });
    for (const [response, status] of [
      [notFound, 404],
      [unauthenticated, 401],
      [invalid, 400],
    ] as const) {
      expect(response.statusCode).toBe(status);
      const id = response.headers['x-request-id'];
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(errorResponseSchema.parse(response.json()).requestId).toBe(id);
    }
    expect(notFound.headers['x-request-id']).not.toBe(unauthenticated.headers['x-request-id']);
  });

  it('takes a well-formed X-Request-Id from the proxy only when TRUST_PROXY is true', async () => {
    const incoming = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    const trusted = await behindProxy.inject({ method: 'GET', url: '/api/nulle-part', headers: { 'x-request-id': incoming } });
    expect(trusted.headers['x-request-id']).toBe(incoming);
    expect(trusted.json().requestId).toBe(incoming);

    const ignored = await ctx.app.inject({ method: 'GET', url: '/api/nulle-part', headers: { 'x-request-id': incoming } });
    expect(ignored.headers['x-request-id']).not.toBe(incoming);
    expect(ignored.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(ignored.json().requestId).toBe(ignored.headers['x-request-id']);

    for (const forged of ['court', 'id avec espaces 12345', 'abc\r\nx-injecte: 1', 'x'.repeat(129), '{"msg":"faux"}']) {
      const response = await behindProxy.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': forged } });
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('writes pino JSON lines that all carry the request id', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        callback();
      },
    });
    const app = await buildApp({
      config: testConfig({ DATA_DIR: ctx.dataDir }),
      db: ctx.db,
      logger: pino({ level: 'info' }, stream),
    });
    try {
      await app.ready();
      const response = await app.inject({ method: 'GET', url: '/api/nulle-part' });
      const id = response.headers['x-request-id'];
      const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      const ofRequest = entries.filter((entry) => entry.requestId === id);
      expect(ofRequest.map((entry) => entry.msg)).toEqual(['incoming request', 'request completed']);
      expect(entries.filter((entry) => entry.req || entry.res).every((entry) => entry.requestId === id)).toBe(true);
    } finally {
      await app.close();
    }
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
