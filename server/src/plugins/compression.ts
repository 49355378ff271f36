import zlib from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** Answers under this size go as they are: the headers cost more than what compression would save. */
export const COMPRESSION_THRESHOLD = 1024;
/**
 * Answers up to this size are compressed in one call, before they leave: brotli 1 writes 60 KB in well under a
 * millisecond. Larger ones, and streams (files, exports), go through @fastify/compress's streams as before.
 */
export const SYNC_COMPRESSION_MAX = 1024 * 1024;

/** The types worth compressing: text, JSON, XML and JavaScript (the same family as @fastify/compress's default). */
const COMPRESSIBLE = /^text\/(?!event-stream)|[+/](?:json|xml|javascript)(?:;|$)/u;

// Brotli where the client takes it, else gzip; q-values are honoured (`br;q=0` refuses brotli). No cache of the
// answers by header: the header is the client's, and a map of them would grow with every variant it sends.
const ENCODINGS: ('br' | 'gzip')[] = ['br', 'gzip'];

function encodingFor(request: FastifyRequest): 'br' | 'gzip' | null {
  const header = request.headers['accept-encoding'];
  if (typeof header !== 'string' || header === '') return null;
  // x-gzip is gzip (RFC 9110 §8.4.1.3), as @fastify/compress reads it.
  return negotiate(header.toLowerCase().replace(/\bx-gzip\b/gu, 'gzip'), ENCODINGS);
}

/** Whether the answer is compressed here: else sent as it is, or left to @fastify/compress (a stream). */
function worthCompressing(request: FastifyRequest, reply: FastifyReply, payload: unknown): payload is string | Buffer {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return false;
  if (request.method === 'HEAD' || reply.statusCode === 204 || reply.statusCode === 304) return false;
  if (request.headers['x-no-compression'] !== undefined || reply.hasHeader('content-encoding')) return false;
  // A strong ETag names these very bytes (a file): left to @fastify/compress as before.
  const etag = reply.getHeader('etag');
  if (typeof etag === 'string' && !etag.startsWith('W/')) return false;
  const type = reply.getHeader('content-type');
  return typeof type === 'string' && COMPRESSIBLE.test(type) && payload.length >= COMPRESSION_THRESHOLD;
}

/** The answer's bytes when their size is within the limits, else null. */
function bytesWithinLimits(payload: string | Buffer): Buffer | null {
  // zlib converts a string to bytes at about twice the cost of Buffer.from.
  const bytes = typeof payload === 'string' ? Buffer.from(payload) : payload;
  return bytes.length >= COMPRESSION_THRESHOLD && bytes.length <= SYNC_COMPRESSION_MAX ? bytes : null;
}

function compress(bytes: Buffer, encoding: 'br' | 'gzip'): Buffer {
  // The size hint sizes brotli's window to the answer: without it each call prepares a 4 MiB one, which doubled the
  // time of a 60 KB answer (0.5 ms instead of 1 ms here).
  return encoding === 'br'
    ? zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } })
    : zlib.gzipSync(bytes, { level: 1 });
}

function appendVary(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  const current = typeof vary === 'string' ? vary : Array.isArray(vary) ? vary.join(', ') : '';
  if (current.split(',').some((name) => name.trim().toLowerCase() === 'accept-encoding' || name.trim() === '*')) return;
  reply.header('vary', current ? `${current}, Accept-Encoding` : 'Accept-Encoding');
}

/**
 * Compression of the API's answers and the web app's page, in one call as they leave (decision 037).
 *
 * @fastify/compress turns every answer into a stream piped through zlib's worker threads: a page of twenty lots cost
 * 0.8 ms more of the server's CPU than the same page sent plain, more than its whole read. Answers already in memory (a string or a buffer,
 * which is every JSON answer) are compressed here instead, with the fastest levels (brotli 1, gzip 1: decision 030),
 * and sent with their length. Registered after the read cache, so it hashes and keeps the plain JSON; streams and
 * larger answers still go through @fastify/compress, which leaves an answer that has a Content-Encoding alone.
 */
export const compressionPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onSend', async (request, reply, payload) => {
    const encoding = encodingFor(request);
    if (!encoding) return payload;
    if (!worthCompressing(request, reply, payload)) return payload;
    // An answer of the read cache is compressed once per encoding: its bytes are kept with it (decision 037).
    const cached = request.cachedAnswer?.payload === payload ? request.cachedAnswer : null;
    let compressed = cached?.encoded[encoding];
    if (!compressed) {
      const bytes = bytesWithinLimits(payload);
      if (!bytes) return payload;
      compressed = compress(bytes, encoding);
      if (cached) cached.encoded[encoding] = compressed;
    }
    reply.header('content-encoding', encoding);
    reply.header('content-length', compressed.length);
    appendVary(reply);
    return compressed;
  });
});
