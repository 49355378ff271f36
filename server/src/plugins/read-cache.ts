import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { etagOf, notModified } from '../lib/http-cache';
import { statementScope, trackChanges, TrackedCache, type ChangeTracker, type StatementScope } from '../lib/change-tracker';
import { startChangeFeed, type ChangeFeed } from '../lib/change-feed';

declare module 'fastify' {
  interface FastifyInstance {
    changes: ChangeTracker;
    readCache: TrackedCache<CachedAnswer>;
    /** Other connections' writes, heard through database notifications (null with both caches off). */
    changeFeed: ChangeFeed | null;
  }
  interface FastifyContextConfig {
    /** A read served from memory while none of the tables it read has changed (GET only). */
    cache?: boolean;
  }
  interface FastifyRequest {
    /** The read cache's answer this request sends (a hit) or has just stored: compression keeps its bytes there. */
    cachedAnswer: CachedAnswer | null;
  }
}

/**
 * An answer kept by the read cache: its bytes, their ETag and the headers that belong to its content, and its
 * compressed bytes per encoding, written by plugins/compression.ts the first time a client asks for them (derived from
 * `payload` alone, so they are as fresh as it is: decision 037).
 */
export interface CachedAnswer {
  /** The answer's UTF-8 bytes (written once, for its ETag, its compression and the socket alike). */
  payload: Buffer;
  etag: string;
  headers: Record<string, string>;
  encoded: Partial<Record<'br' | 'gzip', Buffer>>;
}

/** Room for one compressed copy beside the JSON (brotli 1 writes JSON answers at a tenth to a quarter of their size). */
const ENCODED_SHARE = 0.25;

/** Headers of an answer that belong to its content (the list total), kept with it. */
const CONTENT_HEADERS = ['x-total-count', 'x-total-capped', 'access-control-expose-headers'];

function cacheKey(request: FastifyRequest): string {
  // The same address gives the same answer to the same account; a different account never shares an entry.
  return `${request.auth?.userId ?? '-'} ${request.url}`;
}

/**
 * Read cache and conditional answers for the API (issue 10, docs/decisions/014-read-cache.md).
 * - With the read cache on, every /api request runs in a statement scope: the tables its handler reads are collected
 *   for its entry, and the tables it writes are recorded again just before its answer leaves (the driver already
 *   recorded them when sent, when run and at their commit). With the cache off there is no scope: Node 20 runs a hook
 *   on every promise of the process once an AsyncLocalStorage is in use, for nothing kept (decision 089).
 * - A route with `config.cache` is answered from memory, after the access checks, while none of the tables its handler
 *   read has changed since it was computed (and for at most `ttlMs`, for writers outside this process).
 * - Every GET /api answer in JSON carries a weak ETag; a matching If-None-Match gets 304 without a body.
 */
export const readCachePlugin = fp(async (app: FastifyInstance) => {
  const tracker = trackChanges(app.db);
  const cache = new TrackedCache<CachedAnswer>(tracker, {
    maxSize: 64 * 1024 * 1024,
    ttlMs: 15_000,
    sizeOf: (answer) => Math.ceil(answer.payload.length * (1 + ENCODED_SHARE)),
  });
  app.decorate('changes', tracker);
  app.decorate('readCache', cache);
  const enabled = app.config.READ_CACHE;
  app.decorate('changeFeed', null);
  if (enabled || app.config.sessionCache) {
    // Without the feed, another instance's write would be served stale from memory until the entry's age bound (an
    // answer, or a session: the session cache may be on without the read cache, SESSION_CACHE).
    app.addHook('onReady', async () => {
      app.changeFeed = await startChangeFeed(app.db, tracker, { info: (m) => app.log.info(m), warn: (m) => app.log.warn(m) });
    });
    app.addHook('onClose', async () => {
      await app.changeFeed?.close();
    });
  }
  const scopes = new WeakMap<FastifyRequest, StatementScope & { since: number; hit: boolean }>();
  app.decorateRequest('cachedAnswer', null);

  if (enabled) {
    app.addHook('onRequest', (request, _reply, done) => {
      if (!request.url.startsWith('/api')) return done();
      const scope = { collectReads: false, reads: new Set<string>(), writes: new Set<string>(), since: 0, hit: false };
      scopes.set(request, scope);
      statementScope.run(scope, done);
    });

    app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
      const scope = scopes.get(request);
      if (!scope || request.method !== 'GET' || !request.routeOptions.config?.cache) return;
      const key = cacheKey(request);
      const entry = cache.get(key);
      if (!entry) {
        scope.since = tracker.current();
        scope.collectReads = true;
        return;
      }
      scope.hit = true;
      request.cachedAnswer = entry;
      for (const [name, value] of Object.entries(entry.headers)) reply.header(name, value);
      reply.header('ETag', entry.etag);
      if (notModified(request, entry.etag)) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(entry.payload);
    });
  }

  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.url.startsWith('/api')) return payload;
    const scope = scopes.get(request);
    if (scope?.writes.size) tracker.record(scope.writes);
    if (scope?.hit) {
      reply.header('Cache-Control', 'private, no-cache');
      return payload;
    }
    // Bytes are a document (lib/download.ts), with its own headers: left as they are.
    if (request.method !== 'GET' || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !type.startsWith('application/json')) return payload;
    // The text becomes bytes once, here: hashing the text would write its bytes for the hash, and compression or the
    // socket would write them again (a page of 74 KB: 70 µs each time).
    const bytes = Buffer.from(payload);
    const etag = etagOf(bytes, { weak: true });
    reply.header('ETag', etag);
    reply.header('Cache-Control', 'private, no-cache');
    if (scope?.collectReads && !scope.writes.size) {
      // The session lookup's table is the session cache's business, not this answer's.
      scope.reads.delete('sessions');
      const headers: Record<string, string> = {};
      for (const name of CONTENT_HEADERS) {
        const value = reply.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      const answer: CachedAnswer = { payload: bytes, etag, headers, encoded: {} };
      cache.set(cacheKey(request), answer, scope.reads, scope.since);
      request.cachedAnswer = answer;
    }
    if (notModified(request, etag)) {
      reply.code(304);
      return '';
    }
    return bytes;
  });
});
