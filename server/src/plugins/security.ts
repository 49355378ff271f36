import type { IncomingMessage, ServerResponse } from 'node:http';
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
 * The headers helmet writes with our policy, computed once when the server starts: none depends on the request (no
 * nonce, no directive computed per request). Running helmet's middleware on every request set each header on the
 * socket's answer one by one, through its chain of eleven middlewares: 11–13 µs a request on a bare route, against
 * 4–5 µs for the same headers given to the reply at once (decision 071).
 */
export function securityHeaders(config: Pick<Config, 'MAP_TILE_URL' | 'secureCookies'>): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const collector = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  const writeHeaders = helmet({
    // Exactly our directives: helmet's defaults would add upgrade-insecure-requests, which breaks a plain-HTTP install.
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(config) },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: config.secureCookies ? { maxAge: 365 * 24 * 60 * 60, includeSubDomains: true } : false,
  });
  let failure: unknown = null;
  writeHeaders({} as IncomingMessage, collector as unknown as ServerResponse, (error?: unknown) => {
    failure = error ?? null;
  });
  if (failure) throw failure;
  return Object.freeze(headers);
}

/**
 * Security headers on every answer (securityHeaders), given to the reply when the request arrives. A route that sets
 * its own Content-Security-Policy (file downloads: `sandbox`; the fiscal receipt) replaces helmet's: the route's header
 * is written after. HSTS only behind HTTPS (PUBLIC_URL https), where a browser must never come back over plain HTTP.
 */
export const securityPlugin = fp(async (app: FastifyInstance) => {
  const headers = securityHeaders(app.config);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });

  app.addHook('onSend', async (request, reply, payload) => {
    // The read cache (plugins/read-cache.ts) replaces this with private, no-cache + ETag on JSON reads.
    if (request.url.startsWith('/api') && !reply.hasHeader('Cache-Control')) reply.header('Cache-Control', 'no-store');
    return payload;
  });
});
