import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSettingsSchema, outboxEmailSchema } from '@maillon/common/schemas/settings';
import { emailOutbox, jobs } from '../../db/schema';
import { storeFile } from '../../lib/files';
import { enqueueEmail, processOutbox } from '../../lib/outbox';
import { as, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';

let ctx: TestContext;
let adminCookie: string;
let adminEmail: string;
let techCookie: string;

beforeAll(async () => {
  ctx = await createTestContext({ INGEST_API_KEY: 'cle-ingestion-de-test-123456' });
  const admin = await createAdmin(ctx.db);
  adminEmail = admin.email;
  adminCookie = await login(ctx.app, admin.email);
  const { technician } = await createTechnician(ctx.db);
  techCookie = await login(ctx.app, technician.email);
});
afterAll(async () => {
  await ctx.close();
});

describe('GET /api/admin/settings', () => {
  it('reports the real configuration: admin e-mail, outbox mode and stats, storage, ingestion', async () => {
    await enqueueEmail(ctx.db, { kind: 'technician-approved', to: 'a@maillon.test', subject: 'Compte validé', text: 'x' });
    await processOutbox(ctx.db, ctx.app.config);
    await enqueueEmail(ctx.db, {
      kind: 'password-reset',
      to: 'b@maillon.test',
      subject: 'Réinitialisation',
      text: 'lien secret',
    });
    const head = '%PDF-1.4\n';
    const tail = '\n%%EOF\n';
    const pdf = Buffer.from(head + ' '.repeat(1234 - head.length - tail.length) + tail);
    await storeFile(ctx.db, { storage: ctx.app.storage, technicianId: null, kind: 'cv', buffer: pdf, originalName: 'cv.pdf', invalidTypeMessage: 'x' });
    const ingestedAt = new Date('2026-05-04T08:00:00Z');
    await ctx.db.insert(jobs).values([
      {
        serialNumber: 'S1',
        clientName: 'C',
        defibrillatorModel: 'M',
        visitType: 'Maintenance',
        department: '75',
        completionLink: 'https://x.test',
        address: 'A',
        source: 'geodae',
        createdAt: ingestedAt,
      },
      {
        serialNumber: 'S2',
        clientName: 'C',
        defibrillatorModel: 'M',
        visitType: 'Maintenance',
        department: '75',
        completionLink: 'https://x.test',
        address: 'A',
        source: 'manual',
      },
    ]);

    const response = await as(ctx.app, adminCookie)({ method: 'GET', url: '/api/admin/settings' });
    expect(response.statusCode).toBe(200);
    const settings = adminSettingsSchema.parse(response.json());
    expect(settings).toMatchObject({
      adminEmail,
      mail: { mode: 'logged', stats: { pending: 1, sent: 0, logged: 1, failed: 0 } },
      storage: { database: ctx.kind, uploadsBytes: 1234, uploadsFiles: 1, filesDriver: 'local', filesLocation: `dossier local ${ctx.app.config.uploadsDir}` },
      ingestion: { configured: true, path: '/api/jobs/ingest', lastIngestedAt: ingestedAt.toISOString() },
    });
    expect(response.body).not.toContain('cle-ingestion-de-test');
  });

  it('says SMTP when SMTP_URL is set and no ingestion key when there is none', async () => {
    const other = await createTestContext({ SMTP_URL: 'smtp://user:motdepasse@smtp.example.test:587' });
    try {
      const admin = await createAdmin(other.db);
      const cookie = await login(other.app, admin.email);
      const response = await as(other.app, cookie)({ method: 'GET', url: '/api/admin/settings' });
      expect(response.json()).toMatchObject({ mail: { mode: 'smtp' }, ingestion: { configured: false, lastIngestedAt: null } });
      expect(response.body).not.toContain('motdepasse');
    } finally {
      await other.close();
    }
  });
});

describe('GET /api/admin/settings/emails', () => {
  it('lists the latest e-mails, newest first, paged, without their body', async () => {
    await ctx.db
      .insert(emailOutbox)
      .values({
        kind: 'x',
        to: 'c@maillon.test',
        subject: 'Échec',
        text: 't',
        status: 'failed',
        attempts: 8,
        lastError: 'connexion refusée',
        createdAt: new Date(Date.now() + 60_000),
      });
    const response = await as(ctx.app, adminCookie)({ method: 'GET', url: '/api/admin/settings/emails?limit=2' });
    expect(response.statusCode).toBe(200);
    const emails = outboxEmailSchema.array().parse(response.json());
    expect(emails).toHaveLength(2);
    expect(emails[0]).toMatchObject({ to: 'c@maillon.test', status: 'failed', attempts: 8, lastError: 'connexion refusée' });
    expect(response.headers['x-total-count']).toBe('3');
    expect(response.body).not.toContain('lien secret');
    expect((await as(ctx.app, adminCookie)({ method: 'GET', url: '/api/admin/settings/emails?offset=-1' })).statusCode).toBe(400);
  });
});

describe('access', () => {
  it('admin only: 401 anonymous, 403 technician', async () => {
    for (const url of ['/api/admin/settings', '/api/admin/settings/emails']) {
      expect((await as(ctx.app, null)({ method: 'GET', url })).statusCode).toBe(401);
      expect((await as(ctx.app, techCookie)({ method: 'GET', url })).statusCode).toBe(403);
    }
  });
});

describe('GET /api/admin/audit', () => {
  it('lists sensitive actions with who did them, newest first; admin only', async () => {
    const local = await createTestContext();
    try {
      const admin = await createAdmin(local.db);
      const cookie = await login(local.app, admin.email);
      const { technician } = await createTechnician(local.db, { status: 'pending' });
      const approve = await as(local.app, cookie)({ method: 'PATCH', url: `/api/technicians/${technician.id}/approve` });
      expect(approve.statusCode).toBe(200);
      const response = await as(local.app, cookie)({ method: 'GET', url: '/api/admin/audit?limit=5' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-total-count']).toBe('1');
      const [entry] = response.json() as { actorEmail: string; action: string; entityId: string; before: string; after: string }[];
      expect(entry).toMatchObject({ actorEmail: admin.email, entityId: technician.id });
      expect(entry!.action).toMatch(/approve/);
      expect(JSON.parse(entry!.before)).toMatchObject({ status: 'pending' });
      expect(JSON.parse(entry!.after)).toMatchObject({ status: 'active' });

      const techCookie = await login(local.app, technician.email);
      expect((await as(local.app, techCookie)({ method: 'GET', url: '/api/admin/audit' })).statusCode).toBe(403);
      expect((await as(local.app, null)({ method: 'GET', url: '/api/admin/audit' })).statusCode).toBe(401);
    } finally {
      await local.close();
    }
  });
});
