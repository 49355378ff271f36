import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthSchema, readinessSchema } from '@maillon/common/schemas/health';
import { isMetricsCaller, readinessProbe, registerApplicationMetrics, registerDatabaseChecks } from './health.service';

/** Operations routes, outside /api (no session, no access rule); the web app's fallback never answers them. */
export const OPERATIONS_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** Liveness, readiness and metrics for the reverse proxy, the orchestrator and Prometheus (docs/decisions/020). */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  registerDatabaseChecks(app);
  registerApplicationMetrics(app);
  const readiness = readinessProbe(app);

  app.get('/healthz', { schema: { response: { 200: healthSchema } } }, async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return { status: 'ok' as const };
  });

  app.get('/readyz', { schema: { response: { 200: readinessSchema, 503: readinessSchema } } }, async (request, reply) => {
    const report = await readiness();
    reply.header('Cache-Control', 'no-store');
    if (report.status === 'ok') return report;
    return reply.status(503).send({ ...report, requestId: request.id });
  });

  const token = app.config.METRICS_TOKEN;
  const registry = app.metrics;
  if (token && registry) {
    app.get('/metrics', async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      if (!isMetricsCaller(request.headers.authorization, token)) {
        return reply
          .status(401)
          .header('WWW-Authenticate', 'Bearer realm="metrics"')
          .send({ message: 'Jeton des métriques absent ou invalide', code: 'UNAUTHENTICATED', requestId: request.id });
      }
      return reply.type(registry.contentType).send(await registry.metrics());
    });
  }
};
