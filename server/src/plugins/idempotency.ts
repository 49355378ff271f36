import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';
import { completeIdempotencyKey, releaseIdempotencyKey, reserveIdempotencyKey, type IdempotencyRequest } from '../lib/idempotency';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Set on an answer given again for a key already used. */
export const REPLAYED_HEADER = 'idempotent-replayed';
const KEY_PATTERN = /^[A-Za-z0-9_.:-]{8,128}$/;
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const INVALID_KEY = 'En-tête Idempotency-Key invalide : 8 à 128 caractères (lettres, chiffres, - _ . :)';

declare module 'fastify' {
  interface FastifyRequest {
    /** The Idempotency-Key of a signed-in write, once claimed by this request (null otherwise). */
    idempotency: (IdempotencyRequest & { reserved: boolean }) | null;
  }
}

/**
 * What identifies a request for its key: method, address and body. A JSON body is hashed as parsed (same bytes, same
 * hash); a multipart body streams to the file store unbuffered, so only its method and address count (decision 023).
 */
export function requestFingerprint(request: Pick<FastifyRequest, 'method' | 'url' | 'body'> & { isMultipart(): boolean }): string {
  const body = request.isMultipart() ? 'multipart' : JSON.stringify(request.body ?? null);
  return crypto.createHash('sha256').update(`${request.method}\n${request.url}\n${body}`).digest('hex');
}

function storableBody(payload: unknown): string | null | undefined {
  if (payload === null || payload === undefined) return null;
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) return payload.toString('utf8');
  return undefined; // a stream: not kept, the key is released
}

/**
 * Idempotency-Key on every signed-in write (POST, PUT, PATCH, DELETE under /api): the same key twice applies once and
 * answers the first answer again (status and body, with `Idempotent-Replayed: true`); keys belong to the account that
 * used them; a key reused for another request answers 422; while the first request runs, 409. The key is claimed
 * after access, ownership and validation (an answer those give is not kept: nothing ran) and its answer is stored just
 * before it is sent. 5xx and 429 answers free the key. Without the header nothing changes.
 */
export const idempotencyPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('idempotency', null);

  // After the access plugin's hooks (registered before this one): the caller and its ownership are known.
  app.addHook('preValidation', async (request: FastifyRequest) => {
    if (!WRITE_METHODS.has(request.method) || !request.url.startsWith('/api/') || !request.auth) return;
    const header = request.headers[IDEMPOTENCY_HEADER];
    if (header === undefined) return;
    if (typeof header !== 'string' || !KEY_PATTERN.test(header)) throw new AppError('BAD_REQUEST', INVALID_KEY, { [IDEMPOTENCY_HEADER]: INVALID_KEY });
    request.idempotency = {
      userId: request.auth.userId,
      key: header,
      method: request.method,
      path: request.url,
      fingerprint: requestFingerprint(request),
      reserved: false,
    };
  });

  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    const claim = request.idempotency;
    if (!claim) return;
    const reservation = await reserveIdempotencyKey(app.db, claim);
    switch (reservation.outcome) {
      case 'reserved':
        claim.reserved = true;
        return;
      case 'mismatch':
        throw new AppError('IDEMPOTENCY_KEY_REUSED', 'Cette clé d’idempotence a déjà servi pour une autre requête');
      case 'in-progress':
        throw new AppError('IDEMPOTENCY_IN_PROGRESS', 'Cette modification est déjà en cours d’enregistrement, réessayez dans un instant');
      case 'replay':
        reply.code(reservation.status).header(REPLAYED_HEADER, 'true');
        if (reservation.type) reply.header('content-type', reservation.type);
        return reply.send(reservation.body ?? undefined);
    }
  });

  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claim = request.idempotency;
    if (!claim?.reserved) return payload;
    claim.reserved = false;
    const status = reply.statusCode;
    const body = storableBody(payload);
    try {
      if (status >= 500 || status === 429 || body === undefined) await releaseIdempotencyKey(app.db, claim);
      else {
        const type = reply.getHeader('content-type');
        await completeIdempotencyKey(app.db, claim, { status, type: typeof type === 'string' ? type : null, body });
      }
    } catch (error) {
      // The answer still goes out; the key stays pending until its lease passes, then a retry runs again.
      request.log.warn({ err: error }, 'idempotency key not stored');
    }
    return payload;
  });
});
