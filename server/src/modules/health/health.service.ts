import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { Counter, Gauge } from 'prom-client';
import type { Readiness } from '@maillon/common/schemas/health';
import { migrationsFolder } from '../../db/client';
import { READINESS_TIMEOUT_MS, type ReadinessCheck } from '../../plugins/observability';
import { findAppliedMigrationTimes, getOutboxBacklog, pingDatabase, type OutboxBacklog } from './health.repository';

class TimeoutError extends Error {}

/** `work`, or a TimeoutError after `ms` (the work itself goes on; its result is then ignored). */
async function withTimeout<T>(work: () => Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      Promise.resolve().then(work),
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new TimeoutError()), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

interface JournalEntry {
  when: number;
  tag: string;
}

function readJournal(): JournalEntry[] {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder(), 'meta', '_journal.json'), 'utf8')) as {
    entries: JournalEntry[];
  };
  return journal.entries;
}

/**
 * The database answers `select 1`, the file store is reachable, and every migration of this build's journal is recorded in
 * drizzle.__drizzle_migrations (migrations this build does not know, applied by a newer instance, are fine).
 */
export function registerDatabaseChecks(app: FastifyInstance): void {
  const journal = readJournal();
  const failure = (message: string) => (error: unknown) => {
    app.log.warn({ err: error }, `readiness: ${message}`);
    throw new Error(message);
  };
  app.addReadinessCheck('base de données', () => pingDatabase(app.db).catch(failure('la base de données ne répond pas')));
  // The file store (local folder or S3 bucket): an instance that cannot write uploads is not ready for traffic.
  app.addReadinessCheck('stockage des fichiers', () => app.storage.check().catch(failure('le stockage des fichiers ne répond pas')));
  app.addReadinessCheck('migrations', async () => {
    const applied = await findAppliedMigrationTimes(app.db).catch(failure('impossible de lire les migrations appliquées'));
    const missing = journal.filter((entry) => !applied.has(entry.when));
    if (missing.length > 0) {
      throw new Error(`${missing.length} migration(s) non appliquée(s) : ${missing.map((entry) => entry.tag).join(', ')}`);
    }
  });
}

async function runCheck(name: string, check: ReadinessCheck): Promise<Readiness['checks'][number]> {
  const started = performance.now();
  const durationMs = () => Math.round(performance.now() - started);
  try {
    await withTimeout(check, READINESS_TIMEOUT_MS);
    return { name, ok: true, durationMs: durationMs() };
  } catch (error) {
    const message =
      error instanceof TimeoutError
        ? `pas de réponse en ${READINESS_TIMEOUT_MS / 1000} s`
        : error instanceof Error && error.message
          ? error.message
          : 'en échec';
    return { name, ok: false, message, durationMs: durationMs() };
  }
}

/**
 * Runs every registered check in parallel; callers arriving while a run is under way share its result. (Once a graceful
 * stop has begun, Fastify itself answers 503 to every new request, /readyz included.)
 */
export function readinessProbe(app: FastifyInstance): () => Promise<Readiness> {
  let running: Promise<Readiness> | null = null;
  const run = async (): Promise<Readiness> => {
    const checks = await Promise.all([...app.readinessChecks].map(([name, check]) => runCheck(name, check)));
    const failed = checks.filter((check) => !check.ok);
    if (failed.length === 0) return { status: 'ok', checks };
    const summary = failed.map((check) => `${check.name} (${check.message ?? 'en échec'})`).join(', ');
    return { status: 'indisponible', code: 'NOT_READY', message: `Instance non prête : ${summary}`, checks };
  };
  return () =>
    (running ??= run().finally(() => {
      running = null;
    }));
}

/** Whether the Authorization header carries METRICS_TOKEN (compared in constant time). */
export function isMetricsCaller(authorization: string | undefined, token: string): boolean {
  const expected = crypto.createHash('sha256').update(`Bearer ${token}`).digest();
  const given = crypto
    .createHash('sha256')
    .update(authorization ?? '')
    .digest();
  return crypto.timingSafeEqual(expected, given);
}

/**
 * This application's own metrics, read at scrape time: the read cache's hits and misses, the PostgreSQL pool, the
 * e-mail outbox. Nothing is registered when metrics are off.
 */
export function registerApplicationMetrics(app: FastifyInstance): void {
  const registry = app.metrics;
  if (!registry) return;
  const registers = [registry];

  new Counter({
    name: 'maillon_read_cache_hits_total',
    help: 'Lectures servies depuis le cache de lecture (docs/decisions/014)',
    registers,
    collect() {
      this.reset();
      this.inc(app.readCache.hits);
    },
  });
  new Counter({
    name: 'maillon_read_cache_misses_total',
    help: 'Lectures du cache de lecture calculées faute d’entrée valide',
    registers,
    collect() {
      this.reset();
      this.inc(app.readCache.misses);
    },
  });
  new Gauge({
    name: 'maillon_read_cache_entries',
    help: 'Réponses gardées par le cache de lecture',
    registers,
    collect() {
      this.set(app.readCache.size);
    },
  });

  const client = (app.db as unknown as { $client?: unknown }).$client;
  if (client instanceof pg.Pool) {
    const pool = client;
    const poolGauge = (name: string, help: string, read: () => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read());
        },
      });
    poolGauge('maillon_db_pool_connections', 'Connexions PostgreSQL ouvertes par le pool', () => pool.totalCount);
    poolGauge('maillon_db_pool_idle_connections', 'Connexions PostgreSQL libres dans le pool', () => pool.idleCount);
    poolGauge('maillon_db_pool_waiting_requests', 'Requêtes en attente d’une connexion du pool', () => pool.waitingCount);
    poolGauge('maillon_db_pool_max_connections', 'Taille maximale du pool', () => pool.options.max ?? 10);
  }

  // One query per scrape for the three outbox gauges (they are collected concurrently).
  let scrape: Promise<OutboxBacklog> | null = null;
  const backlog = () =>
    (scrape ??= withTimeout(() => getOutboxBacklog(app.db), READINESS_TIMEOUT_MS).finally(() => {
      scrape = null;
    }));
  const outboxGauge = (name: string, help: string, read: (backlog: OutboxBacklog) => number) =>
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        try {
          this.set(read(await backlog()));
        } catch (error) {
          app.log.warn({ err: error }, 'metrics: outbox backlog unavailable');
          this.set(Number.NaN);
        }
      },
    });
  outboxGauge('maillon_email_outbox_pending', 'E-mails en attente d’envoi dans la file (outbox)', (b) => b.pending);
  outboxGauge('maillon_email_outbox_failed', 'E-mails abandonnés après tous les essais', (b) => b.failed);
  outboxGauge(
    'maillon_email_outbox_oldest_pending_age_seconds',
    'Âge du plus ancien e-mail en attente (0 sans attente)',
    (b) => b.oldestPendingAgeSeconds,
  );
}
