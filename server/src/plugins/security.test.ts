import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { loadConfig, testConfig } from '../config';
import { isDatabaseUnavailable } from './errors';
import { contentSecurityPolicy, securityHeaders } from './security';
import { createAdmin, createTechnician, createTestContext, login, TEST_ORIGIN, TEST_PASSWORD, type TestContext } from '../../test/helpers';
import { multipartBody, sampleFiles } from '../../test/multipart';

let ctx: TestContext;
/** The same database served over plain HTTP (no PUBLIC_URL, no tile server). */
let plainApp: FastifyInstance;
beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL: 'https://maillon.example', MAP_TILE_URL: 'https://tiles.example.org/osm/{z}/{x}/{y}.png' });
  plainApp = await buildApp({ config: testConfig({ DATA_DIR: ctx.app.config.DATA_DIR }), db: ctx.db });
});
afterAll(async () => {
  await plainApp?.close();
  await ctx.close();
});

const loadConfigWith = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', ...env });

const CSP_BASE = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  'IMG_SRC',
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
];
const csp = (imgSrc: string) => CSP_BASE.map((d) => (d === 'IMG_SRC' ? imgSrc : d)).join(';');

/** Every header helmet writes with our policy (plugins/security.ts), HSTS apart. */
const POLICY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

describe('security headers', () => {
  it('sends every policy header, the CSP with the tile origin in img-src, and HSTS behind HTTPS; JSON reads must be revalidated (ETag)', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/public/config' });
    expect(response.headers).toMatchObject(POLICY_HEADERS);
    expect(response.headers['content-security-policy']).toBe(csp("img-src 'self' data: blob: https://tiles.example.org"));
    expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(response.headers['cross-origin-embedder-policy']).toBeUndefined();
    expect(response.headers['cache-control']).toBe('private, no-cache');
    expect(response.headers.etag).toMatch(/^W\/"/);
  });

  it('sends no HSTS over plain HTTP and no tile origin without MAP_TILE_URL', async () => {
    const response = await plainApp.inject({ method: 'GET', url: '/api/public/config' });
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject(POLICY_HEADERS);
    expect(response.headers['strict-transport-security']).toBeUndefined();
    expect(response.headers['content-security-policy']).toBe(csp("img-src 'self' data: blob:"));
  });

  it('builds img-src from MAP_TILE_URL\'s origin only', () => {
    expect(contentSecurityPolicy({ MAP_TILE_URL: 'https://a.tiles.example.fr:8443/{z}/{x}/{y}.png?key=secret' })['img-src']).toEqual([
      "'self'",
      'data:',
      'blob:',
      'https://a.tiles.example.fr:8443',
    ]);
    expect(contentSecurityPolicy({ MAP_TILE_URL: undefined })['img-src']).toEqual(["'self'", 'data:', 'blob:']);
  });

  it('refuses a MAP_TILE_URL that is not an http(s) address with a fixed host', () => {
    for (const value of ['javascript:alert(1)', 'pas une adresse', 'https://{s}.tile.example.org/{z}/{x}/{y}.png', 'ftp://tiles.example.org/x']) {
      expect(() => loadConfigWith({ MAP_TILE_URL: value }), value).toThrow(/MAP_TILE_URL/);
    }
    expect(loadConfigWith({ MAP_TILE_URL: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png' }).MAP_TILE_URL).toBe('https://tile.openstreetmap.org/{z}/{x}/{y}.png');
  });

  it('sends the same headers on errors', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/inconnu' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers).toMatchObject(POLICY_HEADERS);
    expect(response.headers['content-security-policy']).toBe(csp("img-src 'self' data: blob: https://tiles.example.org"));
  });

  it('sends them on answers a hook or the validation refuses (401, 403, 400)', async () => {
    const { technician } = await createTechnician(ctx.db);
    const cookie = await login(ctx.app, technician.email);
    const refused = [
      await ctx.app.inject({ method: 'GET', url: '/api/admin/counts' }),
      await ctx.app.inject({ method: 'GET', url: '/api/admin/counts', headers: { cookie } }),
      await ctx.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: TEST_ORIGIN }, payload: { email: 'pas un e-mail' } }),
    ];
    expect(refused.map((r) => r.statusCode)).toEqual([401, 403, 400]);
    for (const response of refused) {
      expect(response.headers).toMatchObject(POLICY_HEADERS);
      expect(response.headers['content-security-policy']).toBe(csp("img-src 'self' data: blob: https://tiles.example.org"));
      expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it('computes the headers once, as helmet writes them for our policy', () => {
    const headers = securityHeaders({ MAP_TILE_URL: undefined, secureCookies: false });
    expect(headers).toEqual({ ...POLICY_HEADERS, 'content-security-policy': csp("img-src 'self' data: blob:") });
    expect(Object.isFrozen(headers)).toBe(true);
    expect(securityHeaders({ MAP_TILE_URL: undefined, secureCookies: true })['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('keeps the sandbox CSP of a file download (helmet does not overwrite it)', async () => {
    const { technician } = await createTechnician(ctx.db);
    const cookie = await login(ctx.app, technician.email);
    const body = multipartBody({}, { file: { fileName: 'cv.pdf', content: sampleFiles.pdf(), contentType: 'application/pdf' } });
    const upload = await ctx.app.inject({
      method: 'POST',
      url: `/api/technicians/${technician.id}/upload-cv`,
      payload: body.payload,
      headers: { ...body.headers, cookie, origin: TEST_ORIGIN },
    });
    expect(upload.statusCode).toBe(200);
    const [file] = await ctx.db.execute<{ id: string }>(`select id from stored_files where technician_id = '${technician.id}'` as never).then((r) => r.rows);
    const download = await ctx.app.inject({ method: 'GET', url: `/api/files/${file!.id}`, headers: { cookie } });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-security-policy']).toBe('sandbox');
    expect(download.headers['cache-control']).toBe('private, no-store');
    expect(download.headers).toMatchObject(POLICY_HEADERS);
  });

  it('marks the session cookie Secure behind HTTPS (PUBLIC_URL https), httpOnly and SameSite=Lax', async () => {
    const { technician } = await createTechnician(ctx.db);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { origin: 'https://maillon.example' },
      payload: { email: technician.email, password: TEST_PASSWORD },
    });
    const cookie = response.cookies.find((c) => c.name === 'maillon_session');
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });
  });

  it('accepts a change from PUBLIC_URL origin and refuses one without any origin', async () => {
    const { technician } = await createTechnician(ctx.db);
    const cookie = await login(ctx.app, technician.email);
    const fromPublic = await ctx.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie, origin: 'https://maillon.example' } });
    expect(fromPublic.statusCode).toBe(200);
    const cookie2 = await login(ctx.app, technician.email);
    const noOrigin = await ctx.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: cookie2 } });
    expect(noOrigin.statusCode).toBe(403);
    const sameOrigin = await ctx.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: cookie2, origin: TEST_ORIGIN } });
    expect(sameOrigin.statusCode).toBe(200);
  });

  it('answers 401 before validating the input of a protected route', async () => {
    const admin = await ctx.app.inject({ method: 'GET', url: '/api/admin/counts?limit=abc' });
    expect(admin.statusCode).toBe(401);
  });
});

describe('database outages', () => {
  it('recognises connection failures wrapped by the ORM', () => {
    expect(isDatabaseUnavailable({ message: 'Failed query', cause: { code: 'ECONNREFUSED' } })).toBe(true);
    expect(isDatabaseUnavailable({ code: '57P01', message: 'terminating connection due to administrator command' })).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable({ code: '23505', message: 'duplicate key' })).toBe(false);
  });
});

describe('input the database refuses', () => {
  it('answers 400, not 500, for a NUL byte in a search', async () => {
    const admin = await createAdmin(ctx.db);
    const cookie = await login(ctx.app, admin.email);
    const response = await ctx.app.inject({ method: 'GET', url: '/api/missions?search=a%00b', headers: { cookie, origin: TEST_ORIGIN } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'BAD_REQUEST' });
  });
});
