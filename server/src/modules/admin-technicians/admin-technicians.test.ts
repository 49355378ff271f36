import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { adminTechnicianSchema, technicianCountsSchema } from '@maillon/common/schemas/admin-technicians';
import { technicianSchema } from '@maillon/common/schemas/technicians';
import {
  applications,
  auditLog,
  emailOutbox,
  invoices,
  invoicesFiles,
  learningResources,
  missionBatches,
  resourceViews,
  sessions,
  storedFiles,
  technicians,
  users,
} from '../../db/schema';
import { storeFile } from '../../lib/files';
import { as, countRows, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';

let ctx: TestContext;
let adminCookie: string;
let techCookie: string;

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

async function statusOf(id: string) {
  const [row] = await ctx.db.select({ status: technicians.status }).from(technicians).where(eq(technicians.id, id));
  return row?.status;
}

beforeAll(async () => {
  ctx = await createTestContext();
  const admin = await createAdmin(ctx.db);
  adminCookie = await login(ctx.app, admin.email);
  const tech = await createTechnician(ctx.db, { firstName: 'Camille', lastName: 'Laurent' });
  techCookie = await login(ctx.app, tech.technician.email);
});
afterAll(async () => {
  await ctx.close();
});

describe('GET /api/technicians and /enhanced', () => {
  it('lists one sub-tab with search, department filter, paging and X-Total-Count', async () => {
    await createTechnician(ctx.db, {
      firstName: 'Zoé',
      lastName: 'Listée',
      status: 'pending',
      departments: ['44', '35'],
      companyName: 'Secours Ouest',
    });
    await createTechnician(ctx.db, { firstName: 'Yann', lastName: 'Listé', status: 'pending', departments: ['59'] });
    await createTechnician(ctx.db, { firstName: 'Xavier', lastName: 'Listé', status: 'rejected', departments: ['59'] });

    const pending = await as(ctx.app, adminCookie)({ method: 'GET', url: '/api/technicians?status=pending&search=list' });
    expect(pending.statusCode).toBe(200);
    const list = technicianSchema.array().parse(pending.json());
    expect(list.map((t) => t.firstName)).toEqual(['Zoé', 'Yann']);
    expect(pending.headers['x-total-count']).toBe('2');
    expect(pending.body).not.toContain('passwordHash');

    const paged = await as(
      ctx.app,
      adminCookie,
    )({ method: 'GET', url: '/api/technicians?status=pending&search=list&limit=1&offset=1' });
    expect(paged.json().map((t: { firstName: string }) => t.firstName)).toEqual(['Yann']);
    expect(paged.headers['x-total-count']).toBe('2');

    const byDepartment = await as(ctx.app, adminCookie)({ method: 'GET', url: '/api/technicians?department=35' });
    expect(byDepartment.json().map((t: { firstName: string }) => t.firstName)).toEqual(['Zoé']);

    const byCompany = await as(ctx.app, adminCookie)({ method: 'GET', url: '/api/technicians?search=secours%20ouest' });
    expect(byCompany.json()).toHaveLength(1);

    const byFullName = await as(ctx.app, adminCookie)({ method: 'GET', url: '/api/technicians?search=Yann%20List' });
    expect(byFullName.json()).toHaveLength(1);
    // Last name first too, and not across the e-mail.
    const byNameFirst = await as(ctx.app, adminCookie)({ method: 'GET', url: '/api/technicians?search=list%C3%A9%20yann' });
    expect(byNameFirst.json().map((t: { id: string }) => t.id)).toEqual(byFullName.json().map((t: { id: string }) => t.id));

    // Rejected accounts are listed under Désactivés.
    const inactive = await as(ctx.app, adminCookie)({ method: 'GET', url: '/api/technicians?status=inactive&search=list' });
    expect(inactive.json().map((t: { status: string }) => t.status)).toEqual(['rejected']);

    const noWildcard = await as(ctx.app, adminCookie)({ method: 'GET', url: '/api/technicians?search=%25' });
    expect(noWildcard.json()).toHaveLength(0);
  });

  it('enhanced cards carry training progress, current lots and document links', async () => {
    const { technician } = await createTechnician(ctx.db, { firstName: 'Enrichi', status: 'active' });
    const [r1] = await ctx.db
      .insert(learningResources)
      .values([
        { title: 'R1', description: 'd', url: 'https://r1.test' },
        { title: 'R2', description: 'd', url: 'https://r2.test' },
      ])
      .returning();
    await ctx.db.insert(resourceViews).values({ resourceId: r1!.id, technicianId: technician.id });
    const [lot] = await ctx.db.insert(missionBatches).values({ title: 'Lot enrichi' }).returning();
    await ctx.db.insert(applications).values({ batchId: lot!.id, technicianId: technician.id, status: 'Recruté' });
    const cv = await storeFile(ctx.db, {
      storage: ctx.app.storage,
      technicianId: technician.id,
      kind: 'cv',
      buffer: PDF,
      originalName: 'mon-cv.pdf',
      invalidTypeMessage: 'x',
    });
    await ctx.db
      .update(technicians)
      .set({ cvFileId: cv.id, totalEarningsCents: 123456, completedMissions: 3 })
      .where(eq(technicians.id, technician.id));

    const response = await as(ctx.app, adminCookie)({ method: 'GET', url: '/api/technicians/enhanced?search=Enrichi' });
    expect(response.statusCode).toBe(200);
    // Written by PostgreSQL (decision 050): the schema's keys only.
    const [card] = adminTechnicianSchema.strict().array().parse(response.json());
    expect(card).toMatchObject({
      resourcesRead: 1,
      resourcesTotal: 2,
      activeLots: 1,
      cvUrl: `/api/files/${cv.id}`,
      cvName: 'mon-cv.pdf',
      identityDocumentUrl: null,
      totalEarnings: 1234.56,
      completedMissions: 3,
      formationStatus: 'Formation incomplète',
    });
    expect(response.headers['x-total-count']).toBe('1');
  });

  it('counts per sub-tab under the same filters', async () => {
    const response = await as(ctx.app, adminCookie)({ method: 'GET', url: '/api/technicians/status-counts?search=list' });
    expect(response.statusCode).toBe(200);
    expect(technicianCountsSchema.parse(response.json())).toEqual({ pending: 2, active: 0, inactive: 1 });
  });

  it('counts every technician per sub-tab from the kept counts, as a count of the table gives', async () => {
    const counted = async () => {
      const rows = await ctx.db.select({ status: technicians.status }).from(technicians);
      const tab = { pending: 'pending', active: 'active', inactive: 'inactive', rejected: 'inactive' } as const;
      const counts = { pending: 0, active: 0, inactive: 0 };
      for (const row of rows) counts[tab[row.status as keyof typeof tab]] += 1;
      return counts;
    };
    const read = async () => {
      const response = await as(ctx.app, adminCookie)({ method: 'GET', url: '/api/technicians/status-counts' });
      expect(response.statusCode).toBe(200);
      return technicianCountsSchema.strict().parse(response.json());
    };
    const before = await read();
    expect(before).toEqual(await counted());
    await createTechnician(ctx.db, { firstName: 'Compté', status: 'pending' });
    await createTechnician(ctx.db, { firstName: 'Compté', status: 'rejected' });
    const after = await read();
    expect(after).toEqual(await counted());
    expect(after).toEqual({ pending: before.pending + 1, active: before.active, inactive: before.inactive + 1 });
  });

  it('validates the query with French messages', async () => {
    const response = await as(ctx.app, adminCookie)({ method: 'GET', url: '/api/technicians?status=supprime' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Statut inconnu');
    const tooBig = await as(ctx.app, adminCookie)({ method: 'GET', url: '/api/technicians/enhanced?limit=1000' });
    expect(tooBig.statusCode).toBe(400);
  });
});

describe('moderation transitions', () => {
  it('approve: pending → active, e-mails the technician through the outbox, audited; the technician can then log in', async () => {
    const { technician } = await createTechnician(ctx.db, { firstName: 'Léa', status: 'pending' });
    const outboxBefore = await countRows(ctx.db, 'email_outbox');
    const response = await as(ctx.app, adminCookie)({ method: 'PATCH', url: `/api/technicians/${technician.id}/approve` });
    expect(response.statusCode).toBe(200);
    expect(adminTechnicianSchema.parse(response.json()).status).toBe('active');
    expect(await statusOf(technician.id)).toBe('active');
    // The answer is the card the admin's list now shows.
    const listed = await as(ctx.app, adminCookie)({
      method: 'GET',
      url: `/api/technicians/enhanced?status=active&search=${encodeURIComponent(technician.email)}`,
    });
    expect(listed.json()).toEqual([response.json()]);
    const mails = await ctx.db.select().from(emailOutbox).where(eq(emailOutbox.to, technician.email));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ kind: 'technician-approved', status: 'pending' });
    expect(mails[0]!.subject).toContain('validé');
    expect(await countRows(ctx.db, 'email_outbox')).toBe(outboxBefore + 1);
    const audits = await ctx.db.select().from(auditLog).where(eq(auditLog.entityId, technician.id));
    expect(audits.map((a) => a.action)).toContain('technician.approve');
    await expect(login(ctx.app, technician.email)).resolves.toMatch(/maillon_session=/);

    // Approving twice is refused and changes nothing (no second e-mail).
    const again = await as(ctx.app, adminCookie)({ method: 'PATCH', url: `/api/technicians/${technician.id}/approve` });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'INVALID_TRANSITION',
      message: 'Seul un technicien en attente de modération peut être approuvé',
    });
    expect(await countRows(ctx.db, 'email_outbox')).toBe(outboxBefore + 1);
  });

  it('reject: pending → rejected and its open sessions end at once', async () => {
    const { technician } = await createTechnician(ctx.db, { status: 'pending' });
    const cookie = await login(ctx.app, technician.email);
    expect((await as(ctx.app, cookie)({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(200);
    const response = await as(ctx.app, adminCookie)({ method: 'PATCH', url: `/api/technicians/${technician.id}/reject` });
    expect(response.statusCode).toBe(200);
    expect(await statusOf(technician.id)).toBe('rejected');
    expect(await countRows(ctx.db, `sessions where user_id = '${technician.userId}'`)).toBe(0);
    expect((await as(ctx.app, cookie)({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
    await expect(login(ctx.app, technician.email)).rejects.toThrow(/403/);
  });

  it('deactivate: active → inactive revokes sessions; restore: inactive → pending', async () => {
    const { technician } = await createTechnician(ctx.db, { status: 'active' });
    const cookie = await login(ctx.app, technician.email);
    const deactivated = await as(ctx.app, adminCookie)({ method: 'PATCH', url: `/api/technicians/${technician.id}/deactivate` });
    expect(deactivated.statusCode).toBe(200);
    expect(deactivated.json().status).toBe('inactive');
    expect((await as(ctx.app, cookie)({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
    const denied = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: technician.email, password: 'Un-Mot-De-Passe-Solide' },
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe('Compte désactivé');

    const restored = await as(ctx.app, adminCookie)({ method: 'PATCH', url: `/api/technicians/${technician.id}/restore` });
    expect(restored.statusCode).toBe(200);
    expect(await statusOf(technician.id)).toBe('pending');
  });

  it('a rejected account can be restored to moderation', async () => {
    const { technician } = await createTechnician(ctx.db, { status: 'rejected' });
    const response = await as(ctx.app, adminCookie)({ method: 'PATCH', url: `/api/technicians/${technician.id}/restore` });
    expect(response.statusCode).toBe(200);
    expect(await statusOf(technician.id)).toBe('pending');
  });

  it.each([
    ['approve', 'active'],
    ['approve', 'inactive'],
    ['reject', 'active'],
    ['reject', 'rejected'],
    ['deactivate', 'pending'],
    ['deactivate', 'inactive'],
    ['restore', 'active'],
    ['restore', 'pending'],
  ] as const)('%s from %s answers 409 and changes nothing', async (action, status) => {
    const { technician } = await createTechnician(ctx.db, { status });
    const cookie = status === 'active' || status === 'pending' ? await login(ctx.app, technician.email) : null;
    const audits = await countRows(ctx.db, 'audit_log');
    const response = await as(ctx.app, adminCookie)({ method: 'PATCH', url: `/api/technicians/${technician.id}/${action}` });
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('INVALID_TRANSITION');
    expect(await statusOf(technician.id)).toBe(status);
    expect(await countRows(ctx.db, 'audit_log')).toBe(audits);
    if (cookie) expect((await as(ctx.app, cookie)({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(200);
  });

  it('answers 404 for an unknown technician and 400 for a malformed id', async () => {
    const unknown = await as(ctx.app, adminCookie)({ method: 'PATCH', url: `/api/technicians/${crypto.randomUUID()}/approve` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Technicien introuvable');
    const malformed = await as(ctx.app, adminCookie)({ method: 'PATCH', url: '/api/technicians/abc/approve' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBe('Identifiant invalide');
  });
});

describe('DELETE /api/technicians/:id', () => {
  it('removes an inactive technician: account, sessions, records and files on disk; its lot is open again', async () => {
    const { technician, user } = await createTechnician(ctx.db, { status: 'active' });
    const cookie = await login(ctx.app, technician.email);
    const uploadsDir = ctx.app.config.uploadsDir;
    const identity = await storeFile(ctx.db, {
      storage: ctx.app.storage,
      technicianId: technician.id,
      kind: 'identity',
      buffer: PDF,
      originalName: 'id.pdf',
      invalidTypeMessage: 'x',
    });
    const invoiceFile = await storeFile(ctx.db, {
      storage: ctx.app.storage,
      technicianId: technician.id,
      kind: 'invoice',
      buffer: PDF,
      originalName: 'facture.pdf',
      invalidTypeMessage: 'x',
    });
    await ctx.db.update(technicians).set({ identityDocumentFileId: identity.id }).where(eq(technicians.id, technician.id));
    const [lot] = await ctx.db.insert(missionBatches).values({ title: 'Lot du supprimé', priceCents: 10000 }).returning();
    await ctx.db.insert(applications).values({ batchId: lot!.id, technicianId: technician.id, status: 'Recruté' });
    const [invoice] = await ctx.db.insert(invoices).values({ technicianId: technician.id, batchId: lot!.id }).returning();
    await ctx.db
      .insert(invoicesFiles)
      .values({
        invoiceId: invoice!.id,
        technicianId: technician.id,
        reference: 'F-1',
        fileId: invoiceFile.id,
        amountCertifiedCents: 100,
      });
    expect(fs.existsSync(path.join(uploadsDir, identity.storageKey))).toBe(true);

    // Still active: refused, nothing removed.
    const refused = await as(ctx.app, adminCookie)({ method: 'DELETE', url: `/api/technicians/${technician.id}` });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Seul un technicien désactivé peut être supprimé définitivement');
    expect(fs.existsSync(path.join(uploadsDir, identity.storageKey))).toBe(true);
    expect((await as(ctx.app, cookie)({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(200);

    await ctx.db.update(technicians).set({ status: 'inactive' }).where(eq(technicians.id, technician.id));
    const response = await as(ctx.app, adminCookie)({ method: 'DELETE', url: `/api/technicians/${technician.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });
    expect(await ctx.db.select().from(users).where(eq(users.id, user.id))).toHaveLength(0);
    expect(await ctx.db.select().from(technicians).where(eq(technicians.id, technician.id))).toHaveLength(0);
    expect(await ctx.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    expect(await ctx.db.select().from(storedFiles).where(eq(storedFiles.technicianId, technician.id))).toHaveLength(0);
    expect(await ctx.db.select().from(applications).where(eq(applications.batchId, lot!.id))).toHaveLength(0);
    expect(fs.existsSync(path.join(uploadsDir, identity.storageKey))).toBe(false);
    expect(fs.existsSync(path.join(uploadsDir, invoiceFile.storageKey))).toBe(false);
    const audits = await ctx.db.select().from(auditLog).where(eq(auditLog.entityId, technician.id));
    expect(audits.map((a) => a.action)).toContain('technician.delete');

    const again = await as(ctx.app, adminCookie)({ method: 'DELETE', url: `/api/technicians/${technician.id}` });
    expect(again.statusCode).toBe(404);
  });

  it('refuses a pending technician with 409', async () => {
    const { technician } = await createTechnician(ctx.db, { status: 'pending' });
    const response = await as(ctx.app, adminCookie)({ method: 'DELETE', url: `/api/technicians/${technician.id}` });
    expect(response.statusCode).toBe(409);
    expect(await statusOf(technician.id)).toBe('pending');
  });
});

describe('access', () => {
  it('every admin technician route answers 401 anonymously and 403 to a technician, changing nothing', async () => {
    const { technician } = await createTechnician(ctx.db, { status: 'pending' });
    const routes = [
      { method: 'GET' as const, url: '/api/technicians' },
      { method: 'GET' as const, url: '/api/technicians/enhanced' },
      { method: 'GET' as const, url: '/api/technicians/status-counts' },
      { method: 'PATCH' as const, url: `/api/technicians/${technician.id}/approve` },
      { method: 'PATCH' as const, url: `/api/technicians/${technician.id}/reject` },
      { method: 'PATCH' as const, url: `/api/technicians/${technician.id}/deactivate` },
      { method: 'PATCH' as const, url: `/api/technicians/${technician.id}/restore` },
      { method: 'DELETE' as const, url: `/api/technicians/${technician.id}` },
    ];
    for (const route of routes) {
      expect((await as(ctx.app, null)(route)).statusCode, `${route.method} ${route.url}`).toBe(401);
      const forTech = await as(ctx.app, techCookie)(route);
      expect(forTech.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(forTech.json().code).toBe('FORBIDDEN');
    }
    expect(await statusOf(technician.id)).toBe('pending');
    const mine = ctx.app.routeAccess.filter((r) => /^\/api\/technicians\/:id\/(approve|reject|deactivate|restore)$/.test(r.url));
    expect(mine).toHaveLength(4);
    expect(mine.every((r) => r.access === 'admin')).toBe(true);
  });
});
