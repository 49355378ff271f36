import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { successResponseSchema } from '@maillon/common/schemas/profile';
import { emailOutbox, passwordResetTokens, rateLimits, users } from '../../db/schema';
import { processOutbox } from '../../lib/outbox';
import { hashToken } from '../../lib/passwords';
import { as, countRows, createAdmin, createTechnician, createTestContext, login, TEST_ORIGIN, TEST_PASSWORD, type TestContext } from '../../../test/helpers';
import { startTestSmtpServer, type TestSmtpServer } from '../../../test/smtp';
import { RESET_LIMITS, RESET_MESSAGES } from './password.service';

let ctx: TestContext;
let smtp: TestSmtpServer;
beforeAll(async () => {
  [ctx, smtp] = await Promise.all([createTestContext(), startTestSmtpServer()]);
});
afterAll(async () => {
  await smtp.close();
  await ctx.close();
});
beforeEach(async () => {
  await ctx.db.delete(rateLimits);
  await ctx.db.delete(emailOutbox);
  smtp.messages.length = 0;
});

const anonymous = () => as(ctx.app, null);
const requestReset = (email: string) => anonymous()({ method: 'POST', url: '/api/technicians/reset-password', payload: { email } });
const confirmReset = (token: string, password: string) =>
  anonymous()({ method: 'POST', url: '/api/technicians/reset-password/confirm', payload: { token, password } });

async function deliverAndReadToken(to: string): Promise<string> {
  const result = await processOutbox(ctx.db, { SMTP_URL: smtp.url, MAIL_FROM: 'Maillon <no-reply@maillon.test>' });
  expect(result.sent).toBeGreaterThanOrEqual(1);
  const message = smtp.messages.find((m) => m.to.includes(to));
  expect(message).toBeDefined();
  expect(message!.subject).toBe('Maillon — réinitialisation de votre mot de passe');
  const link = /http:\/\/localhost:80\/technician\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(message!.body);
  expect(link).not.toBeNull();
  return decodeURIComponent(link![1]!);
}

async function passwordHashOf(userId: string): Promise<string> {
  const [row] = await ctx.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
  return row!.passwordHash;
}

describe('password reset (forgot password) through a real SMTP server', () => {
  it('e-mails a single-use link; the new password works, the old one and every old session stop working', async () => {
    const { technician } = await createTechnician(ctx.db);
    const oldSession = await login(ctx.app, technician.email);

    const response = await requestReset(technician.email.toUpperCase());
    expect(response.statusCode).toBe(200);
    expect(successResponseSchema.parse(response.json()).message).toBe(RESET_MESSAGES.sent);
    const token = await deliverAndReadToken(technician.email);
    const [stored] = await ctx.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.tokenHash, hashToken(token)));
    expect(stored).toBeDefined();
    expect(stored!.expiresAt.getTime() - Date.now()).toBeGreaterThan(59 * 60_000);
    expect(stored!.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(60 * 60_000);
    // Only the hash is stored.
    expect(JSON.stringify(await ctx.db.select().from(passwordResetTokens))).not.toContain(token);

    const confirmed = await confirmReset(token, 'Nouveau-Mot-De-Passe-42');
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ success: true, message: RESET_MESSAGES.done });

    await expect(login(ctx.app, technician.email)).rejects.toThrow(/401/);
    expect(await login(ctx.app, technician.email, 'Nouveau-Mot-De-Passe-42')).toMatch(/^maillon_session=/);
    expect((await as(ctx.app, oldSession)({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);

    // Single use.
    const again = await confirmReset(token, 'Encore-Un-Autre-Mot');
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(RESET_MESSAGES.invalid);
    expect(await login(ctx.app, technician.email, 'Nouveau-Mot-De-Passe-42')).toMatch(/^maillon_session=/);
  });

  it('answers the same success to an unknown address, an admin address and a deactivated technician, sending nothing', async () => {
    const admin = await createAdmin(ctx.db);
    const { technician: inactive } = await createTechnician(ctx.db, { status: 'inactive' });
    for (const email of ['personne@exemple.fr', admin.email, inactive.email]) {
      const response = await requestReset(email);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ success: true, message: RESET_MESSAGES.sent });
    }
    expect(await countRows(ctx.db, 'email_outbox')).toBe(0);
    const tokens = await ctx.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, admin.id));
    expect(tokens).toHaveLength(0);
  });

  it('refuses an expired link with a clear message and leaves the password unchanged', async () => {
    const { technician, user } = await createTechnician(ctx.db);
    await requestReset(technician.email);
    const token = await deliverAndReadToken(technician.email);
    await ctx.db.update(passwordResetTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(passwordResetTokens.tokenHash, hashToken(token)));
    const before = await passwordHashOf(user.id);
    const response = await confirmReset(token, 'Nouveau-Mot-De-Passe-42');
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(RESET_MESSAGES.expired);
    expect(await passwordHashOf(user.id)).toBe(before);
  });

  it('a new request replaces the previous link', async () => {
    const { technician } = await createTechnician(ctx.db);
    await requestReset(technician.email);
    const first = await deliverAndReadToken(technician.email);
    smtp.messages.length = 0;
    await requestReset(technician.email);
    const second = await deliverAndReadToken(technician.email);
    expect(second).not.toBe(first);
    expect((await confirmReset(first, 'Nouveau-Mot-De-Passe-42')).json().message).toBe(RESET_MESSAGES.invalid);
    expect((await confirmReset(second, 'Nouveau-Mot-De-Passe-42')).statusCode).toBe(200);
  });

  it('validates the new password (length, common) without using up the link, and refuses an unknown token', async () => {
    const { technician, user } = await createTechnician(ctx.db);
    await requestReset(technician.email);
    const token = await deliverAndReadToken(technician.email);
    const before = await passwordHashOf(user.id);
    const short = await confirmReset(token, 'abc');
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe('Le mot de passe doit contenir au moins 6 caractères');
    const common = await confirmReset(token, 'motdepasse');
    expect(common.statusCode).toBe(400);
    expect(common.json().message).toBe('Ce mot de passe est trop courant');
    expect(await passwordHashOf(user.id)).toBe(before);
    const unknown = await confirmReset('x'.repeat(43), 'Nouveau-Mot-De-Passe-42');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(RESET_MESSAGES.invalid);
    expect((await confirmReset(token, 'Nouveau-Mot-De-Passe-42')).statusCode).toBe(200);
  });

  it('validates the request body: e-mail required and well formed', async () => {
    const empty = await requestReset('');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Veuillez entrer votre adresse email');
    const invalid = await requestReset('pas-une-adresse');
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().message).toBe('Adresse email invalide');
  });

  it('uses PUBLIC_URL for the link when configured', async () => {
    const other = await createTestContext({ PUBLIC_URL: 'https://maillon.example.org' });
    try {
      const { technician } = await createTechnician(other.db);
      const response = await other.app.inject({
        method: 'POST',
        url: '/api/technicians/reset-password',
        headers: { origin: TEST_ORIGIN },
        payload: { email: technician.email },
      });
      expect(response.statusCode).toBe(200);
      const [mail] = await other.db.select().from(emailOutbox);
      expect(mail?.text).toMatch(/^https:\/\/maillon\.example\.org\/technician\/reset-password\?token=[A-Za-z0-9_-]{40,}$/m);
    } finally {
      await other.close();
    }
  });

  it('is rate limited per IP and per e-mail', async () => {
    const { technician } = await createTechnician(ctx.db);
    await ctx.db.insert(rateLimits).values({ key: `reset-email:${technician.email}`, windowStart: new Date(), count: RESET_LIMITS.perEmail });
    const byEmail = await requestReset(technician.email);
    expect(byEmail.statusCode).toBe(429);
    expect(await countRows(ctx.db, 'email_outbox')).toBe(0);
    await ctx.db
      .insert(rateLimits)
      .values({ key: 'reset-ip:127.0.0.1', windowStart: new Date(), count: RESET_LIMITS.perIp })
      .onConflictDoUpdate({ target: rateLimits.key, set: { count: RESET_LIMITS.perIp } });
    expect((await requestReset('quelquun@exemple.fr')).statusCode).toBe(429);
  });
});

describe('PATCH /api/users/:id/password', () => {
  it('changes the password, keeps the current session and ends the other ones', async () => {
    const { technician, user } = await createTechnician(ctx.db);
    const current = await login(ctx.app, technician.email);
    const otherDevice = await login(ctx.app, technician.email);
    const response = await as(ctx.app, current)({
      method: 'PATCH',
      url: `/api/users/${user.id}/password`,
      payload: { currentPassword: TEST_PASSWORD, newPassword: 'Nouveau-Mot-De-Passe-42' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: 'Mot de passe modifié' });
    expect((await as(ctx.app, current)({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(200);
    expect((await as(ctx.app, otherDevice)({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
    await expect(login(ctx.app, technician.email)).rejects.toThrow(/401/);
    expect(await login(ctx.app, technician.email, 'Nouveau-Mot-De-Passe-42')).toMatch(/^maillon_session=/);
  });

  it('gives the §5 messages and changes nothing on refusal', async () => {
    const { technician, user } = await createTechnician(ctx.db);
    const cookie = await login(ctx.app, technician.email);
    const before = await passwordHashOf(user.id);
    const cases: [Record<string, string>, number, string][] = [
      [{ currentPassword: '', newPassword: 'Nouveau-Mot-De-Passe-42' }, 400, 'Veuillez entrer votre mot de passe actuel'],
      [{ currentPassword: TEST_PASSWORD, newPassword: '' }, 400, 'Veuillez entrer un nouveau mot de passe'],
      [{ currentPassword: TEST_PASSWORD, newPassword: 'abc' }, 400, 'Le mot de passe doit contenir au moins 6 caractères'],
      [{ currentPassword: TEST_PASSWORD, newPassword: 'password123' }, 400, 'Ce mot de passe est trop courant'],
      [{ currentPassword: 'pas-le-bon', newPassword: 'Nouveau-Mot-De-Passe-42' }, 400, 'Le mot de passe actuel est incorrect'],
    ];
    for (const [payload, status, message] of cases) {
      const response = await as(ctx.app, cookie)({ method: 'PATCH', url: `/api/users/${user.id}/password`, payload });
      expect(response.statusCode).toBe(status);
      expect(response.json().message).toBe(message);
    }
    expect(await passwordHashOf(user.id)).toBe(before);
  });

  it('answers 401 without a session and 404 for another account', async () => {
    const a = await createTechnician(ctx.db);
    const b = await createTechnician(ctx.db);
    const payload = { currentPassword: TEST_PASSWORD, newPassword: 'Nouveau-Mot-De-Passe-42' };
    expect((await anonymous()({ method: 'PATCH', url: `/api/users/${a.user.id}/password`, payload })).statusCode).toBe(401);
    const cookieB = await login(ctx.app, b.technician.email);
    const before = await passwordHashOf(a.user.id);
    const response = await as(ctx.app, cookieB)({ method: 'PATCH', url: `/api/users/${a.user.id}/password`, payload });
    expect(response.statusCode).toBe(404);
    expect(await passwordHashOf(a.user.id)).toBe(before);
  });

  it('lets the admin change its own password', async () => {
    const admin = await createAdmin(ctx.db);
    const cookie = await login(ctx.app, admin.email);
    const response = await as(ctx.app, cookie)({
      method: 'PATCH',
      url: `/api/users/${admin.id}/password`,
      payload: { currentPassword: TEST_PASSWORD, newPassword: 'Admin-Nouveau-2026' },
    });
    expect(response.statusCode).toBe(200);
    expect(await login(ctx.app, admin.email, 'Admin-Nouveau-2026')).toMatch(/^maillon_session=/);
  });

  it('limits wrong current-password attempts per account', async () => {
    const { technician, user } = await createTechnician(ctx.db);
    const cookie = await login(ctx.app, technician.email);
    await ctx.db.insert(rateLimits).values({ key: `password-change:${user.id}`, windowStart: new Date(), count: 10 });
    const response = await as(ctx.app, cookie)({
      method: 'PATCH',
      url: `/api/users/${user.id}/password`,
      payload: { currentPassword: TEST_PASSWORD, newPassword: 'Nouveau-Mot-De-Passe-42' },
    });
    expect(response.statusCode).toBe(429);
  });
});
