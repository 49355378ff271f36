import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { useFrenchZodMessages } from '@maillon/common/zod-fr';
import { UPLOAD_MAX_BYTES } from '@maillon/common/constants';
import type { Config } from './config';
import type { Db } from './db/client';
import { requestLogSerializer } from './lib/log-redaction';
import { openStorage } from './lib/storage';
import type { ObjectStorage } from './lib/storage/object-storage';
import { accessPlugin } from './plugins/access';
import { idempotencyPlugin } from './plugins/idempotency';
import { readCachePlugin } from './plugins/read-cache';
import { compressionPlugin } from './plugins/compression';
import { errorsPlugin } from './plugins/errors';
import { observabilityPlugin, requestIdOf } from './plugins/observability';
import { securityPlugin } from './plugins/security';
import { registerWebAssets } from './plugins/web-assets';
import { apiModules } from './modules';
import { healthRoutes, OPERATIONS_PATHS } from './modules/health/health.routes';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: Config;
    /** Uploaded and generated files (local directory or S3 bucket), chosen once from the configuration. */
    storage: ObjectStorage;
  }
}

useFrenchZodMessages();

export interface BuildAppOptions {
  config: Config;
  db: Db;
  /** The file store; by default opened from the configuration (and closed with the app). */
  storage?: ObjectStorage;
  /** Serve the built web app (production); tests leave it off. */
  serveWeb?: boolean;
  /** The process's logger (main.ts), so start-up and request lines share one JSON format; otherwise built from LOG_LEVEL. */
  logger?: FastifyBaseLogger;
}

function webDistDir(config: Config): string | null {
  const candidates = [
    config.WEB_DIST_DIR,
    path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist'),
    path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist'),
  ].filter((p): p is string => Boolean(p));
  return candidates.find((p) => fs.existsSync(path.join(p, 'index.html'))) ?? null;
}

export async function buildApp({ config, db, storage, serveWeb = false, logger }: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    ...(logger
      ? { loggerInstance: logger }
      : { logger: config.LOG_LEVEL === 'silent' ? false : { level: config.LOG_LEVEL, serializers: { req: requestLogSerializer } } }),
    // Only behind a known proxy: otherwise X-Forwarded-For would let a client dodge the per-IP rate limits.
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 2 * 1024 * 1024,
    // X-Request-Id is taken from our own proxy only (TRUST_PROXY) and checked: see plugins/observability.ts.
    requestIdHeader: false,
    genReqId: (request) => requestIdOf(request, config.TRUST_PROXY),
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('db', db);
  app.decorate('config', config);
  const files = storage ?? openStorage(config);
  app.decorate('storage', files);
  if (!storage) app.addHook('onClose', () => files.close());

  await app.register(errorsPlugin);
  await app.register(observabilityPlugin);
  await app.register(securityPlugin);
  await app.register(cookie);
  await app.register(multipart, {
    limits: { fileSize: UPLOAD_MAX_BYTES, files: 3, fields: 40, parts: 50, fieldSize: 100_000, headerPairs: 200 },
  });
  await app.register(readCachePlugin);
  await app.register(accessPlugin);
  await app.register(idempotencyPlugin);
  // After the read cache, so it hashes and keeps the plain JSON; gzip/brotli for answers over 1 KiB on request. The
  // fastest levels: a JSON page of twenty lots (11 KB) gives 976 bytes at brotli 1 in 34 µs, 897 at brotli 4 in 127 µs
  // (decision 030): the server's CPU is worth more than 80 bytes to a phone. Answers in memory are compressed in one
  // call (plugins/compression.ts, decision 037); @fastify/compress keeps the streams (files, exports).
  await app.register(compressionPlugin);
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } },
    zlibOptions: { level: 1 },
  });

  for (const module of apiModules) await app.register(module);
  await app.register(healthRoutes);

  const distDir = serveWeb ? webDistDir(config) : null;
  const notFound = (request: { id: string }) => ({ message: 'Ressource introuvable', code: 'NOT_FOUND', requestId: request.id });
  if (!distDir) {
    app.setNotFoundHandler((request, reply) => reply.status(404).send(notFound(request)));
  } else {
    await registerWebAssets(app, distDir);
    const indexHtml = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
    app.setNotFoundHandler((request, reply) => {
      const assetPath = request.url.split('?')[0] ?? '/';
      // /metrics without METRICS_TOKEN is a 404, never the web app.
      if (request.url.startsWith('/api') || OPERATIONS_PATHS.has(assetPath) || request.method !== 'GET') {
        return reply.status(404).send(notFound(request));
      }
      if (assetPath.startsWith('/assets/')) {
        return reply.status(404).type('text/plain').send('Not found');
      }
      return reply.header('Cache-Control', 'no-cache').type('text/html').send(indexHtml);
    });
  }

  return app;
}
