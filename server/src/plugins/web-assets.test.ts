import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { testConfig } from '../config';
import { createTestContext, type TestContext } from '../../test/helpers';

let ctx: TestContext;
let web: FastifyInstance;
let dist: string;
const script = `console.log(${JSON.stringify('Maillon '.repeat(400))});`;

beforeAll(async () => {
  ctx = await createTestContext();
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'maillon-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  fs.writeFileSync(path.join(dist, 'assets/index-abc123.js'), script);
  fs.writeFileSync(path.join(dist, 'assets/index-abc123.js.br'), zlib.brotliCompressSync(script));
  fs.writeFileSync(path.join(dist, 'assets/index-abc123.js.gz'), zlib.gzipSync(script));
  fs.writeFileSync(path.join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  fs.writeFileSync(path.join(dist, 'manifest.webmanifest'), JSON.stringify({ name: 'Maillon', start_url: '/technician/dashboard' }));
  web = await buildApp({ config: testConfig({ DATA_DIR: ctx.dataDir, WEB_DIST_DIR: dist }), db: ctx.db, serveWeb: true });
  await web.ready();
});
afterAll(async () => {
  await web.close();
  await ctx.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('web assets', () => {
  it('sends the brotli copy, else the gzip copy, else the file, cached for a year under /assets', async () => {
    const br = await web.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['content-type']).toContain('text/javascript');
    expect(br.headers.vary).toContain('Accept-Encoding');

    const gzip = await web.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(script);

    const plain = await web.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': '' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    expect(plain.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves the service worker never cached long, within the technician scope, and the web app manifest, under the CSP', async () => {
    const worker = await web.inject({ method: 'GET', url: '/sw.js' });
    expect(worker.statusCode).toBe(200);
    expect(worker.headers['content-type']).toContain('text/javascript');
    expect(worker.headers['cache-control']).toBe('no-cache');
    expect(worker.headers['service-worker-allowed']).toBe('/technician/');
    const manifest = await web.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toBe('application/manifest+json');
    expect(manifest.json().start_url).toBe('/technician/dashboard');
    const page = await web.inject({ method: 'GET', url: '/technician/dashboard' });
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
    // The API and downloads are never the app shell: an unknown API path is a JSON 404.
    const api = await web.inject({ method: 'GET', url: '/api/files/00000000-0000-0000-0000-000000000000' });
    expect(api.headers['content-type']).toContain('application/json');
  });

  it('revalidates the files outside /assets with an ETag (304)', async () => {
    const first = await web.inject({ method: 'GET', url: '/favicon.svg' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('public, no-cache');
    expect(first.headers['content-type']).toBe('image/svg+xml');
    const again = await web.inject({ method: 'GET', url: '/favicon.svg', headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('answers an unknown asset 404 in plain text and any page address with the app', async () => {
    const missing = await web.inject({ method: 'GET', url: '/assets/absent-123.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toBe('Not found');
    const page = await web.inject({ method: 'GET', url: '/technician/dashboard?tab=find-missions' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');
    expect(page.headers['cache-control']).toBe('no-cache');
    const api = await web.inject({ method: 'GET', url: '/api/absent' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});
