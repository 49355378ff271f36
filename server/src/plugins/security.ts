import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import type { Config } from '../config';

/**
 * The Content-Security-Policy of every answer (decisions.md §2), built from the configuration: the web app's own code,
 * styles, images, fonts, service worker and manifest only; map tiles from MAP_TILE_URL's origin when one is set.
 */
export function contentSecurityPolicy(config: Pick<Config, 'MAP_TILE_URL'>): Record<string, string[]> {
  const tiles = config.MAP_TILE_URL ? [new URL(config.MAP_TILE_URL).origin] : [];
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', ...tiles],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
    'worker-src': ["'self'"],
    'manifest-src': ["'self'"],
    'frame-ancestors': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'object-src': ["'none'"],
  };
}

/**
 * Security headers on every answer, written by helmet when the request arrives. A route that sets its own
 * Content-Security-Policy (file downloads: `sandbox`; the fiscal receipt) replaces helmet's: the route's headers are
 * written last. HSTS only behind HTTPS (PUBLIC_URL https), where a browser must never come back over plain HTTP.
 * helmet's middleware is built once, here: the Fastify wrapper built it again (parsing the policy) on every request
 * (docs/decisions/030).
 */
export const securityPlugin = fp(async (app: FastifyInstance) => {
  const writeSecurityHeaders = helmet({
    // Exactly our directives: helmet's defaults would add upgrade-insecure-requests, which breaks a plain-HTTP install.
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(app.config) },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: app.config.secureCookies ? { maxAge: 365 * 24 * 60 * 60, includeSubDomains: true } : false,
  });
  app.addHook('onRequest', (request, reply, done) => writeSecurityHeaders(request.raw, reply.raw, () => done()));

  app.addHook('onSend', async (request, reply, payload) => {
    // The read cache (plugins/read-cache.ts) replaces this with private, no-cache + ETag on JSON reads.
    if (request.url.startsWith('/api') && !reply.hasHeader('Cache-Control')) reply.header('Cache-Control', 'no-store');
    return payload;
  });
});
