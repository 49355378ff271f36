import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { useFrenchZodMessages } from '@maillon/common/zod-fr';
import { UPLOAD_MAX_BYTES } from '@maillon/common/constants';
import type { Config } from './config';
import type { Db } from './db/client';
import { openStorage } from './lib/storage';
import type { ObjectStorage } from './lib/storage/object-storage';
import { accessPlugin } from './plugins/access';
import { idempotencyPlugin } from './plugins/idempotency';
import { readCachePlugin } from './plugins/read-cache';
import { errorsPlugin } from './plugins/errors';
import { securityPlugin } from './plugins/security';
import { registerWebAssets } from './plugins/web-assets';
import { apiModules } from './modules';

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
}

function webDistDir(config: Config): string | null {
  const candidates = [
    config.WEB_DIST_DIR,
    path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist'),
    path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist'),
  ].filter((p): p is string => Boolean(p));
  return candidates.find((p) => fs.existsSync(path.join(p, 'index.html'))) ?? null;
}

export async function buildApp({ config, db, storage, serveWeb = false }: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.LOG_LEVEL === 'silent' ? false : { level: config.LOG_LEVEL },
    // Only behind a known proxy: otherwise X-Forwarded-For would let a client dodge the per-IP rate limits.
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 2 * 1024 * 1024,
    requestIdHeader: false,
    genReqId: () => crypto.randomUUID(),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('db', db);
  app.decorate('config', config);
  const files = storage ?? openStorage(config);
  app.decorate('storage', files);
  if (!storage) app.addHook('onClose', () => files.close());

  await app.register(errorsPlugin);
  await app.register(securityPlugin);
  await app.register(cookie);
  await app.register(multipart, {
    limits: { fileSize: UPLOAD_MAX_BYTES, files: 3, fields: 40, parts: 50, fieldSize: 100_000, headerPairs: 200 },
  });
  await app.register(readCachePlugin);
  await app.register(accessPlugin);
  await app.register(idempotencyPlugin);
  // After the read cache, so it hashes and keeps the plain JSON; gzip/brotli for answers over 1 KiB on request.
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  });

  for (const module of apiModules) await app.register(module);

  const distDir = serveWeb ? webDistDir(config) : null;
  const notFound = { message: 'Ressource introuvable', code: 'NOT_FOUND' };
  if (!distDir) {
    app.setNotFoundHandler((_request, reply) => reply.status(404).send(notFound));
  } else {
    await registerWebAssets(app, distDir);
    const indexHtml = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
    app.setNotFoundHandler((request, reply) => {
      if (request.url.startsWith('/api') || request.method !== 'GET') {
        return reply.status(404).send(notFound);
      }
      const assetPath = request.url.split('?')[0] ?? '/';
      if (assetPath.startsWith('/assets/')) {
        return reply.status(404).type('text/plain').send('Not found');
      }
      return reply.header('Cache-Control', 'no-cache').type('text/html').send(indexHtml);
    });
  }

  return app;
}
