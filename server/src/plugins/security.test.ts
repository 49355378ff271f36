import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './errors';
import { createAdmin, createTechnician, createTestContext, login, TEST_ORIGIN, TEST_PASSWORD, type TestContext } from '../../test/helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL: 'https://maillon.example' });
});
afterAll(async () => {
  await ctx.close();
});

describe('security headers', () => {
  it('sends CSP with frame-ancestors none, nosniff, referrer policy; JSON reads must be revalidated (ETag)', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/public/config' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['cache-control']).toBe('private, no-cache');
    expect(response.headers.etag).toMatch(/^W\/"/);
  });

  it('sends the same headers on errors', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/inconnu' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(String(response.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
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
