import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { applications, comments, invoices, missionBatches, missions } from '../../db/schema';
import { as, countRows, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';

let ctx: TestContext;
let admin: ReturnType<typeof as>;
let tech: ReturnType<typeof as>;
let anonymous: ReturnType<typeof as>;

beforeAll(async () => {
  ctx = await createTestContext();
  const adminUser = await createAdmin(ctx.db);
  const { technician } = await createTechnician(ctx.db);
  admin = as(ctx.app, await login(ctx.app, adminUser.email));
  tech = as(ctx.app, await login(ctx.app, technician.email));
  anonymous = as(ctx.app, null);
});
afterAll(async () => {
  await ctx.close();
});

/** A visible lot with two missions and `n` pending applications from fresh technicians. */
async function lotWithApplicants(n: number) {
  const [lot] = await ctx.db.insert(missionBatches).values({ title: 'Lot ATS', priceCents: 80_000, visibility: 'visible' }).returning();
  await ctx.db.insert(missions).values([
    { title: 'M1', batchId: lot!.id, status: 'active' },
    { title: 'M2', batchId: lot!.id, status: 'active' },
  ]);
  const ids: string[] = [];
  const technicianIds: string[] = [];
  for (let i = 0; i < n; i += 1) {
    const { technician } = await createTechnician(ctx.db, {
      firstName: `Tech${i}`,
      companyName: `Société ${i}`,
      phone: '06 00 00 00 00',
      comments: 'Disponible le week-end',
      preferredRelayPoint: 'Relais Lyon 3',
      postalCode: '69003',
      iban: 'FR7630006000011234567890189',
      totalEarningsCents: 12_345,
      completedMissions: 3,
    });
    const [application] = await ctx.db
      .insert(applications)
      .values({ batchId: lot!.id, technicianId: technician.id, appliedAt: new Date(Date.now() - (n - i) * 60_000) })
      .returning();
    ids.push(application!.id);
    technicianIds.push(technician.id);
  }
  return { lotId: lot!.id, applicationIds: ids, technicianIds };
}

describe('GET /api/applications/with-technicians', () => {
  it('lists a lot’s applications with the technician details, never the IBAN', async () => {
    const { lotId, applicationIds } = await lotWithApplicants(2);
    const response = await admin({ method: 'GET', url: `/api/applications/with-technicians?batchId=${lotId}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-total-count']).toBe('2');
    const [first] = response.json();
    expect(first).toMatchObject({
      id: applicationIds[0],
      status: 'En attente',
      earnings: 123.45,
      missionCount: 3,
      technician: {
        firstName: 'Tech0',
        lastName: 'Martin',
        companyName: 'Société 0',
        phone: '06 00 00 00 00',
        departments: ['75'],
        remarks: 'Disponible le week-end',
        preferredRelayPoint: 'Relais Lyon 3',
        postalCode: '69003',
      },
    });
    expect(response.body).not.toContain('FR76');
    expect(response.body).not.toContain('passwordHash');
  });

  it('needs a lot or a mission', async () => {
    const response = await admin({ method: 'GET', url: '/api/applications/with-technicians' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Veuillez préciser un lot ou une mission');
    const byMission = await admin({ method: 'GET', url: `/api/applications/with-technicians?missionId=${crypto.randomUUID()}` });
    expect(byMission.json()).toEqual([]);
    expect((await tech({ method: 'GET', url: `/api/applications/with-technicians?missionId=${crypto.randomUUID()}` })).statusCode).toBe(403);
    expect((await anonymous({ method: 'GET', url: `/api/applications/with-technicians?missionId=${crypto.randomUUID()}` })).statusCode).toBe(401);
  });
});

describe('PATCH /api/applications/:id/status (Sélectionner / Refuser)', () => {
  it('recruits one technician (invoice created); another selection answers 409 "Déjà assigné"', async () => {
    const { lotId, applicationIds, technicianIds } = await lotWithApplicants(3);
    const select = await admin({ method: 'PATCH', url: `/api/applications/${applicationIds[0]}/status`, payload: { status: 'Recruté' } });
    expect(select.statusCode).toBe(200);
    expect(select.json().status).toBe('Recruté');
    const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.batchId, lotId));
    expect(invoice).toMatchObject({ technicianId: technicianIds[0], status: 'Mission à terminer', initialAmountCents: 80_000, progression: '0/2' });

    const second = await admin({ method: 'PATCH', url: `/api/applications/${applicationIds[1]}/status`, payload: { status: 'Recruté' } });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ message: 'Déjà assigné', code: 'ALREADY_ASSIGNED' });
    // Selecting the recruit again is harmless.
    expect((await admin({ method: 'PATCH', url: `/api/applications/${applicationIds[0]}/status`, payload: { status: 'Recruté' } })).statusCode).toBe(200);

    const refuse = await admin({ method: 'PATCH', url: `/api/applications/${applicationIds[2]}/status`, payload: { status: 'Refusé' } });
    expect(refuse.json().status).toBe('Refusé');
    const refuseRecruit = await admin({ method: 'PATCH', url: `/api/applications/${applicationIds[0]}/status`, payload: { status: 'Refusé' } });
    expect(refuseRecruit.statusCode).toBe(409);
    const statuses = await ctx.db.select({ status: applications.status }).from(applications).where(eq(applications.batchId, lotId));
    expect(statuses.map((s) => s.status).sort()).toEqual(['En attente', 'Recruté', 'Refusé']);
    expect(await countRows(ctx.db, 'invoices')).toBeGreaterThanOrEqual(1);
  });

  it('keeps exactly one Recruté under two concurrent selections', async () => {
    const { lotId, applicationIds } = await lotWithApplicants(2);
    const results = await Promise.all(
      applicationIds.map((id) => admin({ method: 'PATCH', url: `/api/applications/${id}/status`, payload: { status: 'Recruté' } })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.statusCode === 409)!.json().message).toBe('Déjà assigné');
    const recruited = await ctx.db
      .select()
      .from(applications)
      .where(and(eq(applications.batchId, lotId), eq(applications.status, 'Recruté')));
    expect(recruited).toHaveLength(1);
    expect(await ctx.db.select().from(invoices).where(eq(invoices.batchId, lotId))).toHaveLength(1);
  });

  it('validates the status and the id, and is for the admin only', async () => {
    const { applicationIds } = await lotWithApplicants(1);
    const url = `/api/applications/${applicationIds[0]}/status`;
    const bad = await admin({ method: 'PATCH', url, payload: { status: 'Terminé' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Statut invalide');
    expect((await admin({ method: 'PATCH', url: `/api/applications/${crypto.randomUUID()}/status`, payload: { status: 'Refusé' } })).statusCode).toBe(404);
    expect((await tech({ method: 'PATCH', url, payload: { status: 'Recruté' } })).statusCode).toBe(403);
    expect((await anonymous({ method: 'PATCH', url, payload: { status: 'Recruté' } })).statusCode).toBe(401);
    const [row] = await ctx.db.select().from(applications).where(eq(applications.id, applicationIds[0]!));
    expect(row!.status).toBe('En attente');
  });
});

describe('PATCH /api/applications/:id/admin-comment', () => {
  it('saves the comment and posts it as an administrator message on the lot', async () => {
    const { lotId, applicationIds, technicianIds } = await lotWithApplicants(1);
    const url = `/api/applications/${applicationIds[0]}/admin-comment`;
    const response = await admin({ method: 'PATCH', url, payload: { adminComment: '  Prévoir des électrodes enfant.  ' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ message: 'Commentaire sauvegardé', application: { adminComment: 'Prévoir des électrodes enfant.' } });
    const rows = await ctx.db.select().from(comments).where(eq(comments.batchId, lotId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ technicianId: technicianIds[0], authorRole: 'admin', content: 'Prévoir des électrodes enfant.' });
  });

  it('refuses an empty comment and non-admins, writing nothing', async () => {
    const { applicationIds } = await lotWithApplicants(1);
    const url = `/api/applications/${applicationIds[0]}/admin-comment`;
    const before = await countRows(ctx.db, 'comments');
    const empty = await admin({ method: 'PATCH', url, payload: { adminComment: '   ' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Le commentaire est requis');
    expect((await tech({ method: 'PATCH', url, payload: { adminComment: 'x' } })).statusCode).toBe(403);
    expect((await admin({ method: 'PATCH', url: `/api/applications/${crypto.randomUUID()}/admin-comment`, payload: { adminComment: 'x' } })).statusCode).toBe(404);
    expect(await countRows(ctx.db, 'comments')).toBe(before);
  });
});
