import crypto from 'node:crypto';
import http from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** Resolves when the component is usable; throws an Error whose message (French) says what is wrong. */
export type ReadinessCheck = () => Promise<void>;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Adds a check GET /readyz runs with the others (database, migrations…), each within READINESS_TIMEOUT_MS.
     * The instance is ready when every check resolves; a check's error message is shown in the 503 answer.
     */
    addReadinessCheck(name: string, check: ReadinessCheck): void;
    readinessChecks: ReadonlyMap<string, ReadinessCheck>;
    /** This app's Prometheus registry (not prom-client's global one); null when metrics are off. */
    metrics: Registry | null;
  }
}

export const READINESS_TIMEOUT_MS = 2000;

/** What a proxy may send as X-Request-Id: nginx's $request_id, a UUID, most tracing ids; nothing that could forge a log line. */
const REQUEST_ID_FORMAT = /^[A-Za-z0-9._:-]{8,128}$/;

/** The request's id: the X-Request-Id of our own reverse proxy (TRUST_PROXY) when well formed, otherwise a new UUID. */
export function requestIdOf(request: { headers: http.IncomingHttpHeaders }, trustProxy: boolean): string {
  const incoming = request.headers['x-request-id'];
  if (trustProxy && typeof incoming === 'string' && REQUEST_ID_FORMAT.test(incoming)) return incoming;
  return crypto.randomUUID();
}

/** The route pattern, never the raw URL: ids would make one series per record. */
function routeLabel(request: FastifyRequest): string {
  const pattern = request.routeOptions.url;
  if (!pattern) return 'unmatched';
  // One route per built web file: their hashed names change with every build.
  if (pattern.startsWith('/assets/')) return '/assets/*';
  return pattern;
}

/**
 * Request ids, readiness checks and Prometheus metrics (docs/decisions/020-health-metrics-request-ids.md).
 * - Every answer carries X-Request-Id (the id in every log line of the request and in every error body).
 * - `app.addReadinessCheck(name, check)`: the registry GET /readyz runs (modules/health).
 * - With METRICS_TOKEN or METRICS_PORT: a per-app registry with prom-client's default metrics (event-loop lag, memory,
 *   GC, handles) and a histogram of request durations by route pattern, method and status; METRICS_PORT also gets its
 *   own listener on METRICS_HOST (127.0.0.1 by default), started and stopped with the app.
 */
export const observabilityPlugin = fp(async (app: FastifyInstance) => {
  const checks = new Map<string, ReadinessCheck>();
  app.decorate('readinessChecks', checks);
  app.decorate('addReadinessCheck', (name: string, check: ReadinessCheck) => {
    if (checks.has(name)) throw new Error(`Contrôle de disponibilité déjà déclaré : ${name}`);
    checks.set(name, check);
  });

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    done();
  });

  if (!app.config.metricsEnabled) {
    app.decorate('metrics', null);
    return;
  }
  const registry = new Registry();
  app.decorate('metrics', registry);
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Durée des requêtes HTTP par route (motif de la route), méthode et statut',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', (request, reply, done) => {
    duration.observe(
      { method: request.method, route: routeLabel(request), status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });

  const port = app.config.METRICS_PORT;
  if (port === undefined) return;
  const server = http.createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    registry.metrics().then(
      (body) => response.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(body),
      (error: unknown) => {
        app.log.error({ err: error }, 'metrics rendering failed');
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Erreur interne\n');
      },
    );
  });
  app.addHook('onReady', async () => {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, app.config.METRICS_HOST, () => {
        server.off('error', reject);
        resolve();
      });
    });
    app.log.info(`Métriques Prometheus : http://${app.config.METRICS_HOST}:${port}/metrics`);
  });
  app.addHook('onClose', async () => {
    if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
