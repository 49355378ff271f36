import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import compress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { missions } from '../db/schema';
import { etagOf } from '../lib/http-cache';
import { createAdmin, createTestContext, login, as, type TestContext } from '../../test/helpers';
import { COMPRESSION_THRESHOLD, compressionPlugin, SYNC_COMPRESSION_MAX } from './compression';

const json = JSON.stringify({ lots: Array.from({ length: 80 }, (_, i) => ({ id: i, title: `Lot ${i} — Lyon « centre »` })) });
const text = (length: number) => 'Maillon '.repeat(Math.ceil(length / 8)).slice(0, length);

/** The plugin as the app registers it: before @fastify/compress, which keeps the streams. */
let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify();
  await app.register(compressionPlugin);
  await app.register(compress, { threshold: COMPRESSION_THRESHOLD, encodings: ['br', 'gzip'] });
  app.get('/json', async (_request, reply) => reply.type('application/json; charset=utf-8').send(json));
  app.get('/buffer', async (_request, reply) => reply.type('text/csv; charset=utf-8').send(Buffer.from(text(5000))));
  app.get('/small', async (_request, reply) => reply.type('application/json').send(JSON.stringify({ ok: true })));
  app.get('/huge', async (_request, reply) => reply.type('text/plain').send(text(SYNC_COMPRESSION_MAX + 1)));
  app.get('/png', async (_request, reply) => reply.type('image/png').send(Buffer.alloc(5000, 7)));
  app.get('/file', async (_request, reply) => reply.type('text/plain').header('etag', etagOf(text(5000), { weak: false })).send(text(5000)));
  app.get('/stream', async (_request, reply) => reply.type('text/plain').send(Readable.from([text(3000), text(3000)])));
  app.get('/vary', async (_request, reply) => reply.type('application/json').header('vary', 'Origin').send(json));
  app.get('/empty', async (_request, reply) => reply.status(304).send());
});
afterAll(async () => {
  await app.close();
});

const get = (url: string, acceptEncoding?: string, method: 'GET' | 'HEAD' = 'GET') =>
  app.inject({ method, url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

describe('compression of answers in memory (decision 037)', () => {
  it('sends brotli to a browser, with its length and Vary; the bytes decompress to the answer', async () => {
    const response = await get('/json', 'gzip, deflate, br, zstd');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers.vary).toBe('Accept-Encoding');
    expect(response.headers['transfer-encoding']).toBeUndefined();
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
    expect(response.rawPayload.length).toBeLessThan(Buffer.byteLength(json) / 3);
    expect(zlib.brotliDecompressSync(response.rawPayload).toString('utf8')).toBe(json);
  });

  it('sends gzip when brotli is not accepted or refused by its q-value, x-gzip read as gzip', async () => {
    for (const header of ['gzip', 'br;q=0, gzip', 'x-gzip', 'GZIP;q=0.5, identity']) {
      const response = await get('/buffer', header);
      expect(response.headers['content-encoding'], header).toBe('gzip');
      expect(zlib.gunzipSync(response.rawPayload).toString('utf8'), header).toBe(text(5000));
    }
  });

  it('sends the answer as it is without Accept-Encoding, with identity only, below 1 KiB, for images, for HEAD and for 304', async () => {
    for (const [url, header] of [['/json', undefined], ['/json', ''], ['/json', 'identity'], ['/json', 'zstd'], ['/small', 'br'], ['/png', 'br']] as const) {
      const response = await get(url, header);
      expect(response.headers['content-encoding'], `${url} ${header}`).toBeUndefined();
      expect(response.statusCode).toBe(200);
    }
    expect((await get('/json')).body).toBe(json);
    const head = await get('/json', 'br', 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBeUndefined();
    const notModified = await get('/empty', 'br');
    expect(notModified.statusCode).toBe(304);
    expect(notModified.headers['content-encoding']).toBeUndefined();
  });

  it('adds Accept-Encoding to an existing Vary once', async () => {
    const response = await get('/vary', 'br');
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers.vary).toBe('Origin, Accept-Encoding');
  });

  it('leaves streams, answers over SYNC_COMPRESSION_MAX and files with a strong ETag to @fastify/compress', async () => {
    for (const [url, expected] of [['/stream', text(3000) + text(3000)], ['/huge', text(SYNC_COMPRESSION_MAX + 1)], ['/file', text(5000)]] as const) {
      const response = await get(url, 'br');
      expect(response.headers['content-encoding'], url).toBe('br');
      // The library streams its answer: no length, chunked.
      expect(response.headers['content-length'], url).toBeUndefined();
      expect(zlib.brotliDecompressSync(response.rawPayload).toString('utf8'), url).toBe(expected);
    }
  });
});

describe('compression in the app', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ READ_CACHE: true });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('a JSON list goes brotli with its weak ETag, which a revalidation still matches (304 without a body)', async () => {
    const user = await createAdmin(ctx.db);
    const admin = as(ctx.app, await login(ctx.app, user.email));
    await ctx.db.insert(missions).values(Array.from({ length: 12 }, (_, i) => ({ title: `Maintenance du DAE ${i}`, description: 'Contrôle annuel' })));
    const plain = await admin({ method: 'GET', url: '/api/missions' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESSION_THRESHOLD);
    const compressed = await admin({ method: 'GET', url: '/api/missions', headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(compressed.statusCode).toBe(200);
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.headers.etag).toBe(plain.headers.etag);
    expect(String(compressed.headers.etag)).toMatch(/^W\//);
    expect(JSON.parse(zlib.brotliDecompressSync(compressed.rawPayload).toString('utf8'))).toEqual(plain.json());
    const revalidated = await admin({
      method: 'GET',
      url: '/api/missions',
      headers: { 'accept-encoding': 'br', 'if-none-match': String(compressed.headers.etag) },
    });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.rawPayload.length).toBe(0);
  });

  it('compresses an answer of the read cache once per encoding, and again once a write changed it', async () => {
    const user = await createAdmin(ctx.db);
    const admin = as(ctx.app, await login(ctx.app, user.email));
    await ctx.db.insert(missions).values(Array.from({ length: 12 }, (_, i) => ({ title: `Contrôle du DAE ${i}`, description: 'Visite annuelle' })));
    const read = (encoding: string) => admin({ method: 'GET', url: '/api/missions?limit=50', headers: { 'accept-encoding': encoding } });
    const brotli = vi.spyOn(zlib, 'brotliCompressSync');
    const gzip = vi.spyOn(zlib, 'gzipSync');
    try {
      // The notification of the insert arrives after its commit: the first answer must not be computed before.
      await ctx.app.changeFeed?.caughtUp();
      const first = await read('br');
      const hits = ctx.app.readCache.hits;
      const second = await read('br');
      expect(ctx.app.readCache.hits).toBe(hits + 1);
      expect(brotli).toHaveBeenCalledTimes(1);
      expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
      expect(second.headers['content-length']).toBe(String(first.rawPayload.length));
      // Another encoding of the same answer: compressed once too.
      const gzipped = await read('gzip');
      await read('gzip');
      expect(gzip).toHaveBeenCalledTimes(1);
      expect(zlib.gunzipSync(gzipped.rawPayload).equals(zlib.brotliDecompressSync(first.rawPayload))).toBe(true);
      // A write: the next read is a new answer, compressed again, with the new mission in it.
      await ctx.db.insert(missions).values({ title: 'Nouveau contrôle', description: 'Visite annuelle' });
      const after = await read('br');
      expect(brotli).toHaveBeenCalledTimes(2);
      const titles = (JSON.parse(zlib.brotliDecompressSync(after.rawPayload).toString('utf8')) as { title: string }[]).map((m) => m.title);
      expect(titles).toContain('Nouveau contrôle');
    } finally {
      brotli.mockRestore();
      gzip.mockRestore();
    }
  });
});
