import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { sessionResponseSchema } from '@maillon/common/schemas/auth';
import { technicianSchema } from '@maillon/common/schemas/technicians';
import { errorResponseSchema } from '@maillon/common/schemas/errors';
import { sessions, technicians, users } from '../../db/schema';
import { as, countRows, createAdmin, createTechnician, createTestContext, login, TEST_ORIGIN, TEST_PASSWORD, type TestContext } from '../../../test/helpers';
import { storeFile } from '../../lib/files';
import { ensureAdmin, getSessionView } from './auth.service';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

describe('POST /api/auth/login', () => {
  it('logs a technician in and returns { user, technician } with a httpOnly SameSite=Lax cookie', async () => {
    const { technician } = await createTechnician(ctx.db, { iban: 'FR7630006000011234567890189' });
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { origin: TEST_ORIGIN },
      payload: { email: technician.email.toUpperCase(), password: TEST_PASSWORD },
    });
    expect(response.statusCode).toBe(200);
    const body = sessionResponseSchema.parse(response.json());
    expect(body.user.role).toBe('technician');
    expect(body.technician?.id).toBe(technician.id);
    expect(body.technician?.ibanLast4).toBe('0189');
    expect(response.body).not.toContain('passwordHash');
    expect(response.body).not.toContain('FR7630006000011234567890189');
    const cookie = response.cookies.find((c) => c.name === 'maillon_session');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
    expect(await countRows(ctx.db, 'sessions')).toBeGreaterThan(0);
  });

  it('refuses a wrong password with 401 and a French message, creating no session', async () => {
    const { technician } = await createTechnician(ctx.db);
    const before = await countRows(ctx.db, 'sessions');
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: technician.email, password: 'mauvais-mot-de-passe' },
    });
    expect(response.statusCode).toBe(401);
    expect(errorResponseSchema.parse(response.json())).toMatchObject({ code: 'INVALID_CREDENTIALS', message: 'Email ou mot de passe incorrect' });
    expect(await countRows(ctx.db, 'sessions')).toBe(before);
  });

  it('answers the same for an unknown account', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'inconnu@maillon.test', password: 'whatever1' } });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('INVALID_CREDENTIALS');
  });

  it('refuses inactive and rejected technicians with "Compte désactivé"', async () => {
    for (const status of ['inactive', 'rejected'] as const) {
      const { technician } = await createTechnician(ctx.db, { status });
      const response = await ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: technician.email, password: TEST_PASSWORD } });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'ACCOUNT_DISABLED', message: 'Compte désactivé' });
      expect(response.cookies.find((c) => c.name === 'maillon_session')).toBeUndefined();
    }
  });

  it('lets a pending technician log in (moderation banner, no applying)', async () => {
    const { technician } = await createTechnician(ctx.db, { status: 'pending' });
    const cookie = await login(ctx.app, technician.email);
    const me = await as(ctx.app, cookie)({ method: 'GET', url: '/api/auth/me' });
    expect(me.json().technician.status).toBe('pending');
  });

  it('validates the body with French field messages', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'pas-un-email', password: '' } });
    expect(response.statusCode).toBe(400);
    const body = errorResponseSchema.parse(response.json());
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.fields?.email).toBe('Adresse email invalide');
    expect(body.fields?.password).toBe('Veuillez entrer votre mot de passe');
  });

  it('answers 400, not 500, for malformed JSON', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(response.statusCode).toBe(400);
    expect(errorResponseSchema.parse(response.json()).code).toBe('BAD_REQUEST');
  });

  it('locks an account for 15 minutes after 10 failed logins (429)', async () => {
    const { technician } = await createTechnician(ctx.db);
    for (let i = 0; i < 10; i += 1) {
      const r = await ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: technician.email, password: 'faux-mot-de-passe' } });
      expect(r.statusCode).toBe(401);
    }
    const locked = await ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: technician.email, password: TEST_PASSWORD } });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('RATE_LIMITED');
  });
});

describe('GET /api/auth/me and POST /api/auth/logout', () => {
  it('reflects the session, then 401 after logout', async () => {
    const { technician } = await createTechnician(ctx.db);
    const cookie = await login(ctx.app, technician.email);
    const call = as(ctx.app, cookie);
    const me = await call({ method: 'GET', url: '/api/auth/me' });
    expect(me.statusCode).toBe(200);
    expect(sessionResponseSchema.parse(me.json()).technician?.id).toBe(technician.id);

    const logout = await call({ method: 'POST', url: '/api/auth/logout' });
    expect(logout.statusCode).toBe(200);
    const after = await call({ method: 'GET', url: '/api/auth/me' });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('answers as PostgreSQL writes it what the login answers, key for key, for a technician and for the admin', async () => {
    const { technician } = await createTechnician(ctx.db, { iban: 'FR7630006000011234567890189', preferredRelayPoint: 'Relais « Chez Zoé »' });
    const identity = await storeFile(ctx.db, {
      storage: ctx.app.storage,
      technicianId: technician.id,
      kind: 'identity',
      buffer: Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'),
      originalName: 'identite.pdf',
      invalidTypeMessage: 'x',
    });
    await ctx.db
      .update(technicians)
      .set({ identityDocumentFileId: identity.id, totalEarningsCents: 123_456, completedMissions: 7, comments: 'Ligne 1\nLigne "2"', departments: ['2A', '75'] })
      .where(eq(technicians.id, technician.id));
    const admin = await createAdmin(ctx.db);
    const strict = sessionResponseSchema.extend({ user: sessionResponseSchema.shape.user.strict(), technician: technicianSchema.strict().nullable() }).strict();
    for (const [email, userId] of [
      [technician.email, technician.userId],
      [admin.email, admin.id],
    ] as const) {
      const me = await as(ctx.app, await login(ctx.app, email))({ method: 'GET', url: '/api/auth/me' });
      expect(me.statusCode, me.body).toBe(200);
      expect(me.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(strict.parse(me.json())).toEqual(await getSessionView(ctx.db, userId));
    }
    const me = await as(ctx.app, await login(ctx.app, technician.email))({ method: 'GET', url: '/api/auth/me' });
    expect(me.json()).toMatchObject({
      technician: { identityDocumentUrl: `/api/files/${identity.id}`, cvUrl: null, totalEarnings: 1234.56, ibanLast4: '0189', comments: 'Ligne 1\nLigne "2"' },
    });
    expect(me.body).not.toContain('FR7630006000011234567890189');
  });

  it('answers 401 without a session and for a forged cookie', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
    const forged = await as(ctx.app, 'maillon_session=forged-token')({ method: 'GET', url: '/api/auth/me' });
    expect(forged.statusCode).toBe(401);
  });

  it('ends an expired session', async () => {
    const { technician, user } = await createTechnician(ctx.db);
    const cookie = await login(ctx.app, technician.email);
    await ctx.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.userId, user.id));
    const me = await as(ctx.app, cookie)({ method: 'GET', url: '/api/auth/me' });
    expect(me.statusCode).toBe(401);
    const left = await ctx.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(left).toHaveLength(0);
  });

  it('gives the admin a short idle window (2 h) and the technician 30 days', async () => {
    const admin = await createAdmin(ctx.db);
    await login(ctx.app, admin.email);
    const [adminSession] = await ctx.db.select().from(sessions).where(eq(sessions.userId, admin.id));
    const idle = adminSession!.expiresAt.getTime() - Date.now();
    expect(idle).toBeGreaterThan(119 * 60_000);
    expect(idle).toBeLessThanOrEqual(120 * 60_000);
    expect(adminSession!.absoluteExpiresAt.getTime() - Date.now()).toBeLessThanOrEqual(12 * 3600_000);

    const { technician, user } = await createTechnician(ctx.db);
    await login(ctx.app, technician.email);
    const [techSession] = await ctx.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(techSession!.expiresAt.getTime() - Date.now()).toBeGreaterThan(29 * 24 * 3600_000);
  });

  it('revokes the session of a technician deactivated meanwhile', async () => {
    const { technician } = await createTechnician(ctx.db);
    const cookie = await login(ctx.app, technician.email);
    await ctx.db.update(technicians).set({ status: 'inactive' }).where(eq(technicians.id, technician.id));
    expect((await as(ctx.app, cookie)({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
  });

  it('refuses a cookie-authenticated change from another origin (CSRF)', async () => {
    const { technician } = await createTechnician(ctx.db);
    const cookie = await login(ctx.app, technician.email);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie, origin: 'https://evil.example' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe('FORBIDDEN');
    expect((await as(ctx.app, cookie)({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(200);
  });
});

describe('admin account bootstrap', () => {
  it('creates the configured admin once', async () => {
    expect(await ensureAdmin(ctx.db, 'Boss@Maillon.test', 'Tres-Secret-42')).toBe('created');
    expect(await ensureAdmin(ctx.db, 'boss@maillon.test', 'Tres-Secret-42')).toBe('exists');
    const rows = await ctx.db.select().from(users).where(eq(users.email, 'boss@maillon.test'));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.passwordHash).not.toContain('Tres-Secret-42');
    await login(ctx.app, 'boss@maillon.test', 'Tres-Secret-42');
  });
});

describe('errors', () => {
  it('answers JSON 404 for an unknown /api route', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/does-not-exist' });
    expect(response.statusCode).toBe(404);
    expect(errorResponseSchema.parse(response.json())).toEqual({
      message: 'Ressource introuvable',
      code: 'NOT_FOUND',
      requestId: response.headers['x-request-id'],
    });
  });
});
