import type { FastifyRequest } from 'fastify';

/**
 * Secret tokens travel in some addresses (the site's visit link, the calendar feed, the password-reset page): the
 * request log keeps the path without them, so a log reader cannot use them.
 */
export function redactUrl(url: string): string {
  return url
    .replace(/^(\/rdv\/|\/api\/site-visits\/|\/api\/calendar\/)[^/?#.]+/, '$1[masqué]')
    .replace(/([?&]token=)[^&#]*/g, '$1[masqué]');
}

/** Fastify's request log line, with the address redacted. */
export function requestLogSerializer(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
