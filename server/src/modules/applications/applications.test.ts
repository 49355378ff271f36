import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { centsToEuros } from '@maillon/common/format';
import { applicationLotSchema, applicationSchema, technicianApplicationSchema, treatedDeviceSchema } from '@maillon/common/schemas/applications';
import { applications, learningResources, missionBatches, missions, resourceViews, technicianMissionData, technicians } from '../../db/schema';
import { finishApplication, recruitApplication, saveMissionProgress } from '../lifecycle/lifecycle.service';
import { as, countRows, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';
import { isoTime, lotDescription } from '../../../test/lot-json';

let ctx: TestContext;
let cookieAdmin: string;
let resourceId: string;

beforeAll(async () => {
  ctx = await createTestContext();
  const admin = await createAdmin(ctx.db);
  cookieAdmin = await login(ctx.app, admin.email);
  const [resource] = await ctx.db.insert(learningResources).values({ title: 'Module', description: 'd', url: 'https://a.test' }).returning();
  resourceId = resource!.id;
});
afterAll(async () => {
  await ctx.close();
});

/** An active technician who viewed every module (may apply), logged in. */
async function trainedTechnician(overrides: Parameters<typeof createTechnician>[1] = {}) {
  const { technician } = await createTechnician(ctx.db, overrides);
  await ctx.db.insert(resourceViews).values({ resourceId, technicianId: technician.id });
  return { technician, cookie: await login(ctx.app, technician.email) };
}

async function createLot(values: Partial<typeof missionBatches.$inferInsert> = {}, devices = 2) {
  const [lot] = await ctx.db
    .insert(missionBatches)
    .values({ title: 'Lot test', priceCents: 60_000, departments: ['33'], tags: ['Maintenance'], visibility: 'visible', ...values })
    .returning();
  const rows = devices
    ? await ctx.db
        .insert(missions)
        .values(Array.from({ length: devices }, (_, i) => ({ title: `M${i}`, batchId: lot!.id, status: 'active', serialNumber: `SN-${i}`, clientName: `Client ${i}`, defibrillatorModel: 'Zoll' })))
        .returning()
    : [];
  return { lot: lot!, missionIds: rows.map((m) => m.id) };
}

const apply = (cookie: string | null, payload: Record<string, unknown>) =>
  as(ctx.app, cookie)({ method: 'POST', url: '/api/applications/batch', payload });

describe('POST /api/applications/batch', () => {
  it('creates an "En attente" application (201) and a second one answers 409', async () => {
    const { technician, cookie } = await trainedTechnician();
    const { lot } = await createLot();
    const response = await apply(cookie, { batchId: lot.id, technicianId: technician.id, status: 'En attente' });
    expect(response.statusCode).toBe(201);
    const body = applicationSchema.parse(response.json());
    expect(body).toMatchObject({ batchId: lot.id, technicianId: technician.id, status: 'En attente', missionId: null });

    const again = await apply(cookie, { batchId: lot.id, technicianId: technician.id, status: 'En attente' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'ALREADY_EXISTS', message: 'Vous avez déjà postulé à ce lot' });
    expect(await ctx.db.select().from(applications).where(eq(applications.batchId, lot.id))).toHaveLength(1);
  });

  it('refuses a technician whose training is incomplete (403), writing nothing', async () => {
    const { technician } = await createTechnician(ctx.db);
    const cookie = await login(ctx.app, technician.email);
    const { lot } = await createLot();
    const before = await countRows(ctx.db, 'applications');
    const response = await apply(cookie, { batchId: lot.id, technicianId: technician.id });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'FORBIDDEN', message: 'Formation incomplète : consultez toutes les ressources de formation pour postuler' });
    expect(await countRows(ctx.db, 'applications')).toBe(before);
  });

  it('refuses a pending account (403) with the reason', async () => {
    const { technician, cookie } = await trainedTechnician({ status: 'pending' });
    const { lot } = await createLot();
    const before = await countRows(ctx.db, 'applications');
    const response = await apply(cookie, { batchId: lot.id, technicianId: technician.id });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe('Compte en attente de validation : vous pourrez postuler dès que votre compte sera validé');
    expect(await countRows(ctx.db, 'applications')).toBe(before);
  });

  it('refuses invisible (404), system (404), completed (409) and already assigned (409 "Déjà assigné") lots', async () => {
    const { technician, cookie } = await trainedTechnician();
    const other = await trainedTechnician();
    const invisible = await createLot({ visibility: 'invisible' });
    const system = await createLot({ isSystem: true, title: 'Système' });
    const completed = await createLot({ status: 'completed' });
    const assigned = await createLot();
    await ctx.db.insert(applications).values({ batchId: assigned.lot.id, technicianId: other.technician.id, status: 'Recruté' });
    const before = await countRows(ctx.db, 'applications');

    const r1 = await apply(cookie, { batchId: invisible.lot.id, technicianId: technician.id });
    expect(r1.statusCode).toBe(404);
    expect(r1.json().message).toBe('Lot introuvable');
    expect((await apply(cookie, { batchId: system.lot.id, technicianId: technician.id })).statusCode).toBe(404);
    const r3 = await apply(cookie, { batchId: completed.lot.id, technicianId: technician.id });
    expect(r3.statusCode).toBe(409);
    expect(r3.json()).toMatchObject({ code: 'INVALID_TRANSITION', message: 'Ce lot est terminé' });
    const r4 = await apply(cookie, { batchId: assigned.lot.id, technicianId: technician.id });
    expect(r4.statusCode).toBe(409);
    expect(r4.json()).toMatchObject({ code: 'ALREADY_ASSIGNED', message: 'Déjà assigné' });
    const unknown = await apply(cookie, { batchId: '00000000-0000-4000-8000-000000000000', technicianId: technician.id });
    expect(unknown.statusCode).toBe(404);
    expect(await countRows(ctx.db, 'applications')).toBe(before);
  });

  it('access and validation: 404 on behalf of another technician, 403 admin, 401 anonymous, 400 bad body', async () => {
    const a = await trainedTechnician();
    const b = await trainedTechnician();
    const { lot } = await createLot();
    const before = await countRows(ctx.db, 'applications');
    expect((await apply(b.cookie, { batchId: lot.id, technicianId: a.technician.id })).statusCode).toBe(404);
    expect((await apply(cookieAdmin, { batchId: lot.id, technicianId: a.technician.id })).statusCode).toBe(403);
    expect((await apply(null, { batchId: lot.id, technicianId: a.technician.id })).statusCode).toBe(401);
    const badStatus = await apply(a.cookie, { batchId: lot.id, technicianId: a.technician.id, status: 'Recruté' });
    expect(badStatus.statusCode).toBe(400);
    expect(badStatus.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: 'Statut de candidature invalide' });
    const noLot = await apply(a.cookie, { technicianId: a.technician.id });
    expect(noLot.statusCode).toBe(400);
    expect(noLot.json().message).toBe('Lot requis');
    const badLot = await apply(a.cookie, { batchId: 'nope', technicianId: a.technician.id });
    expect(badLot.json().message).toBe('Identifiant de lot invalide');
    expect(await countRows(ctx.db, 'applications')).toBe(before);
  });

  it('refuses a deactivated account: its session ends (401), and the database refuses it too, writing nothing', async () => {
    const { technician, cookie } = await trainedTechnician();
    const { lot } = await createLot();
    await ctx.db.update(technicians).set({ status: 'inactive' }).where(eq(technicians.id, technician.id));
    const before = await countRows(ctx.db, 'applications');
    expect((await apply(cookie, { batchId: lot.id, technicianId: technician.id })).statusCode).toBe(401);
    // maillon_apply checks the account itself (decision 070), whoever calls it.
    const outcome = async (technicianId: string) =>
      (await ctx.db.execute<{ outcome: string }>(sql`select outcome from maillon_apply(${technicianId}, ${lot.id}::uuid, null, 'En attente')`)).rows[0]!.outcome;
    expect(await outcome(technician.id)).toBe('account-inactive');
    expect(await outcome('00000000-0000-4000-8000-000000000000')).toBe('technician-not-found');
    expect(await countRows(ctx.db, 'applications')).toBe(before);
  });

  it('20 parallel applications of one technician to one lot create exactly one', async () => {
    const { technician, cookie } = await trainedTechnician();
    const { lot } = await createLot();
    const responses = await Promise.all(Array.from({ length: 20 }, () => apply(cookie, { batchId: lot.id, technicianId: technician.id })));
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const rows = await ctx.db.select().from(applications).where(and(eq(applications.batchId, lot.id), eq(applications.technicianId, technician.id)));
    expect(rows).toHaveLength(1);
  });
});

describe('POST /api/applications (single mission)', () => {
  it('creates a "pending" application for a mission of an open lot, once', async () => {
    const { technician, cookie } = await trainedTechnician();
    const { missionIds } = await createLot();
    const payload = { missionId: missionIds[0], technicianId: technician.id, status: 'pending' };
    const response = await as(ctx.app, cookie)({ method: 'POST', url: '/api/applications', payload });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ missionId: missionIds[0], batchId: null, status: 'pending' });
    const again = await as(ctx.app, cookie)({ method: 'POST', url: '/api/applications', payload });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Vous avez déjà postulé à cette mission');
  });

  it('applies the same rules: training, visibility, assignment, ownership', async () => {
    const untrained = await createTechnician(ctx.db);
    const untrainedCookie = await login(ctx.app, untrained.technician.email);
    const { technician, cookie } = await trainedTechnician();
    const open = await createLot();
    const invisible = await createLot({ visibility: 'invisible' });
    const [loose] = await ctx.db.insert(missions).values({ title: 'Sans lot', status: 'active' }).returning();
    const before = await countRows(ctx.db, 'applications');
    const post = (c: string, payload: Record<string, unknown>) => as(ctx.app, c)({ method: 'POST', url: '/api/applications', payload });
    expect((await post(untrainedCookie, { missionId: open.missionIds[0], technicianId: untrained.technician.id })).statusCode).toBe(403);
    expect((await post(cookie, { missionId: invisible.missionIds[0], technicianId: technician.id })).statusCode).toBe(404);
    expect((await post(cookie, { missionId: loose!.id, technicianId: technician.id })).statusCode).toBe(404);
    expect((await post(cookie, { missionId: open.missionIds[0], technicianId: untrained.technician.id })).statusCode).toBe(404);
    // A mission completed or cancelled, a lot completed or with its technician: 409, each with its reason.
    const completedLot = await createLot({ status: 'completed' });
    const assigned = await createLot();
    await ctx.db.insert(applications).values({ batchId: assigned.lot.id, technicianId: untrained.technician.id, status: 'Recruté' });
    await ctx.db.update(missions).set({ status: 'completed' }).where(eq(missions.id, open.missionIds[0]!));
    await ctx.db.update(missions).set({ status: 'cancelled' }).where(eq(missions.id, open.missionIds[1]!));
    for (const [missionId, code, message] of [
      [open.missionIds[0], 'INVALID_TRANSITION', 'Ce lot est terminé'],
      [open.missionIds[1], 'INVALID_TRANSITION', 'Ce lot est terminé'],
      [completedLot.missionIds[0], 'INVALID_TRANSITION', 'Ce lot est terminé'],
      [assigned.missionIds[0], 'ALREADY_ASSIGNED', 'Déjà assigné'],
      ['00000000-0000-4000-8000-000000000000', 'NOT_FOUND', 'Mission introuvable'],
    ] as const) {
      const refused = await post(cookie, { missionId, technicianId: technician.id });
      expect([refused.statusCode, refused.json()]).toEqual([code === 'NOT_FOUND' ? 404 : 409, expect.objectContaining({ code, message })]);
    }
    const before2 = await countRows(ctx.db, 'applications');
    expect(before2).toBe(before + 1);
    const bad = await post(cookie, { missionId: 'x', technicianId: technician.id });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Identifiant de mission invalide');
    expect(await countRows(ctx.db, 'applications')).toBe(before2);
  });
});

describe('GET /api/applications', () => {
  it('lists only the technician’s own applications with the lot summary, filtered by pill', async () => {
    const a = await trainedTechnician();
    const b = await trainedTechnician();
    const pending = await createLot({ title: 'Lot en attente', description: null, deadline: new Date('2026-10-01T18:00:00Z') });
    const refused = await createLot({ title: 'Lot refusé' });
    const cancelled = await createLot({ title: 'Lot annulé' });
    const recruited = await createLot({ title: 'Lot recruté' });
    await ctx.db.insert(applications).values([
      { batchId: pending.lot.id, technicianId: a.technician.id, status: 'En attente', appliedAt: new Date('2026-03-01T10:00:00Z'), adminComment: 'Bienvenue' },
      { batchId: refused.lot.id, technicianId: a.technician.id, status: 'Refusé', appliedAt: new Date('2026-03-02T10:00:00Z') },
      { batchId: cancelled.lot.id, technicianId: a.technician.id, status: 'Annulé', appliedAt: new Date('2026-03-03T10:00:00Z') },
      { batchId: recruited.lot.id, technicianId: a.technician.id, status: 'Recruté', appliedAt: new Date('2026-03-04T10:00:00Z') },
      { batchId: pending.lot.id, technicianId: b.technician.id, status: 'En attente' },
    ]);

    const all = await as(ctx.app, a.cookie)({ method: 'GET', url: `/api/applications?technicianId=${a.technician.id}` });
    expect(all.statusCode).toBe(200);
    expect(all.headers['x-total-count']).toBe('4');
    const page = await as(ctx.app, a.cookie)({ method: 'GET', url: `/api/applications?technicianId=${a.technician.id}&limit=1&offset=1` });
    expect(page.json()).toHaveLength(1);
    expect(page.headers['x-total-count']).toBe('4');
    const past = await as(ctx.app, a.cookie)({ method: 'GET', url: `/api/applications?technicianId=${a.technician.id}&offset=50` });
    expect(past.json()).toEqual([]);
    expect(past.headers['x-total-count']).toBe('4');
    const body = technicianApplicationSchema.array().parse(all.json());
    expect(body.map((x) => x.lot.title)).toEqual(['Lot recruté', 'Lot annulé', 'Lot refusé', 'Lot en attente']);
    expect(body.every((x) => x.technicianId === a.technician.id)).toBe(true);
    expect(body[3]).toMatchObject({
      status: 'En attente',
      appliedAt: '2026-03-01T10:00:00.000Z',
      adminComment: 'Bienvenue',
      finalRevenue: null,
      devices: null,
      lot: { description: 'Lot de missions de maintenance', price: 600, departments: ['33'], tags: ['Maintenance'], deadline: '2026-10-01T18:00:00.000Z', candidateCount: 2, defibrillatorCount: 2, models: ['Zoll'] },
    });

    const get = async (status: string) => {
      const response = await as(ctx.app, a.cookie)({ method: 'GET', url: `/api/applications?technicianId=${a.technician.id}&status=${encodeURIComponent(status)}` });
      expect(response.statusCode).toBe(200);
      return response.json().map((x: { status: string }) => x.status);
    };
    expect(await get('Refusé')).toEqual(['Annulé', 'Refusé']);
    expect(await get('En attente')).toEqual(['En attente']);
    expect(await get('Recruté')).toEqual(['Recruté']);
    expect(await get('Terminé')).toEqual([]);

    const counts = await as(ctx.app, a.cookie)({ method: 'GET', url: `/api/applications/status-counts?technicianId=${a.technician.id}` });
    expect(counts.json()).toEqual({ Recruté: 1, 'En attente': 1, Refusé: 2, Terminé: 0 });
  });

  it('technician B never sees A’s applications: 404 for A’s id, own list when filtering by lot', async () => {
    const a = await trainedTechnician();
    const b = await trainedTechnician();
    const { lot } = await createLot();
    await ctx.db.insert(applications).values({ batchId: lot.id, technicianId: a.technician.id });
    expect((await as(ctx.app, b.cookie)({ method: 'GET', url: `/api/applications?technicianId=${a.technician.id}` })).statusCode).toBe(404);
    expect((await as(ctx.app, b.cookie)({ method: 'GET', url: `/api/applications/status-counts?technicianId=${a.technician.id}` })).statusCode).toBe(404);
    // The counts' statement is built once: each call counts its own technician's applications.
    const countsOf = async (who: typeof a) =>
      (await as(ctx.app, who.cookie)({ method: 'GET', url: `/api/applications/status-counts?technicianId=${who.technician.id}` })).json();
    expect(await countsOf(a)).toEqual({ Recruté: 0, 'En attente': 1, Refusé: 0, Terminé: 0 });
    expect(await countsOf(b)).toEqual({ Recruté: 0, 'En attente': 0, Refusé: 0, Terminé: 0 });
    const byLot = await as(ctx.app, b.cookie)({ method: 'GET', url: `/api/applications?batchId=${lot.id}` });
    expect(byLot.statusCode).toBe(200);
    expect(byLot.json()).toEqual([]);
    const mine = await as(ctx.app, b.cookie)({ method: 'GET', url: '/api/applications' });
    expect(mine.json()).toEqual([]);
    expect((await as(ctx.app, null)({ method: 'GET', url: '/api/applications' })).statusCode).toBe(401);
  });

  it('lets the admin list a lot’s applications', async () => {
    const a = await trainedTechnician();
    const b = await trainedTechnician();
    const c = await trainedTechnician();
    const { lot, missionIds } = await createLot();
    const other = await createLot({ title: 'Autre lot' });
    await ctx.db.insert(applications).values([
      { batchId: lot.id, technicianId: a.technician.id },
      { batchId: lot.id, technicianId: b.technician.id, status: 'Refusé' },
      // An application to one of the lot's missions (spec 01) belongs to the lot too; one to another lot does not.
      { missionId: missionIds[0]!, technicianId: c.technician.id },
      { batchId: other.lot.id, technicianId: c.technician.id },
    ]);
    const response = await as(ctx.app, cookieAdmin)({ method: 'GET', url: `/api/applications?batchId=${lot.id}` });
    expect(response.statusCode).toBe(200);
    const expected = [a.technician.id, b.technician.id, c.technician.id].sort();
    expect(response.json().map((x: { technicianId: string }) => x.technicianId).sort()).toEqual(expected);
    expect(response.headers['x-total-count']).toBe('3');
    // Past the last page the total is counted on its own, with the same condition.
    const past = await as(ctx.app, cookieAdmin)({ method: 'GET', url: `/api/applications?batchId=${lot.id}&limit=5&offset=5` });
    expect(past.json()).toEqual([]);
    expect(past.headers['x-total-count']).toBe('3');
  });

  it('lets the admin list every application, and those of a pill, most recent first with the kept totals (decision 040)', async () => {
    const a = await trainedTechnician();
    const { lot } = await createLot({ title: 'Lot de toutes les candidatures' });
    await ctx.db.insert(applications).values([
      { batchId: lot.id, technicianId: a.technician.id, status: 'Refusé', appliedAt: new Date('2026-01-01T10:00:00Z') },
      { batchId: (await createLot({ title: 'Lot récent' })).lot.id, technicianId: a.technician.id, appliedAt: new Date('2030-01-01T10:00:00Z') },
    ]);
    const counted = async (statuses?: string[]) =>
      Number((await ctx.db.select({ n: sql<number>`count(*)` }).from(applications).where(statuses ? inArray(applications.status, statuses) : undefined))[0]!.n);
    const admin = as(ctx.app, cookieAdmin);
    const all = await admin({ method: 'GET', url: '/api/applications?limit=1' });
    expect(all.statusCode).toBe(200);
    expect(Number(all.headers['x-total-count'])).toBe(await counted());
    // Most recent first: the application of 2030 leads.
    expect(all.json()[0].lot.title).toBe('Lot récent');
    const ordered = (await admin({ method: 'GET', url: '/api/applications?limit=100' })).json() as { appliedAt: string }[];
    expect(ordered.map((x) => x.appliedAt)).toEqual([...ordered.map((x) => x.appliedAt)].sort().reverse());
    // The limit is written in the statement's text (decision 067): each page size is its own statement.
    expect(ordered).toHaveLength(Math.min(100, await counted()));
    const second = (await admin({ method: 'GET', url: '/api/applications?limit=1&offset=1' })).json() as { appliedAt: string }[];
    expect(second.map((x) => x.appliedAt)).toEqual([ordered[1]!.appliedAt]);
    // A pill counts its statuses; one status alone; past the last page the same totals.
    for (const [filter, statuses] of [['Refusé', ['Refusé', 'Annulé']], ['En attente', ['En attente', 'pending']], ['Annulé', ['Annulé']], ['Terminé', ['Terminé']]] as const) {
      const page = await admin({ method: 'GET', url: `/api/applications?status=${encodeURIComponent(filter)}&limit=1` });
      expect(Number(page.headers['x-total-count']), filter).toBe(await counted([...statuses]));
      const past = await admin({ method: 'GET', url: `/api/applications?status=${encodeURIComponent(filter)}&limit=1&offset=1000` });
      expect(past.json()).toEqual([]);
      expect(Number(past.headers['x-total-count']), filter).toBe(await counted([...statuses]));
    }
    expect((await admin({ method: 'GET', url: '/api/applications?limit=1' })).json()[0].status).toBe('En attente');
  });

  it('gives a Terminé application its final revenue and the devices with their state', async () => {
    const a = await trainedTechnician();
    const { lot, missionIds } = await createLot({ title: 'Lot fini', priceCents: 90_000 }, 3);
    await ctx.db.insert(technicianMissionData).values([
      { missionId: missionIds[0]!, technicianId: a.technician.id, isCompleted: true },
      { missionId: missionIds[1]!, technicianId: a.technician.id, isCompleted: true },
      { missionId: missionIds[2]!, technicianId: a.technician.id, isCompleted: false },
    ]);
    await ctx.db
      .update(missionBatches)
      .set({ status: 'completed', defibrillatorsSum: 3, defibrillatorsDone: 2, amountPerDefibCents: 30_000 })
      .where(eq(missionBatches.id, lot.id));
    await ctx.db.insert(applications).values({ batchId: lot.id, technicianId: a.technician.id, status: 'Terminé' });
    const response = await as(ctx.app, a.cookie)({ method: 'GET', url: '/api/applications?status=Termin%C3%A9' });
    const [finished] = technicianApplicationSchema.array().parse(response.json());
    expect(finished!.finalRevenue).toBe(600);
    expect(finished!.lot).toMatchObject({ defibrillatorCount: 3, defibrillatorsDone: 2, amountPerDefib: 300, status: 'completed' });
    expect(finished!.devices).toEqual([
      { id: missionIds[0], serialNumber: 'SN-0', clientName: 'Client 0', done: true },
      { id: missionIds[1], serialNumber: 'SN-1', clientName: 'Client 1', done: true },
      { id: missionIds[2], serialNumber: 'SN-2', clientName: 'Client 2', done: false },
    ]);
  });

  it('keeps the undone devices of a lot finished through the lifecycle (moved to the system lot) as "Non traité"', async () => {
    const a = await trainedTechnician();
    const { lot, missionIds } = await createLot({ title: 'Lot fini partiellement', priceCents: 60_000 }, 2);
    const [application] = await ctx.db.insert(applications).values({ batchId: lot.id, technicianId: a.technician.id }).returning();
    await ctx.db.transaction(async (tx) => {
      await recruitApplication(tx, { applicationId: application!.id });
      await saveMissionProgress(tx, { missionId: missionIds[0]!, technicianId: a.technician.id, patch: { isCompleted: true } });
      await finishApplication(tx, { applicationId: application!.id, force: true });
    });
    const [moved] = await ctx.db.select().from(missions).where(eq(missions.id, missionIds[1]!));
    expect(moved!.batchId).not.toBe(lot.id);
    const response = await as(ctx.app, a.cookie)({ method: 'GET', url: '/api/applications?status=Termin%C3%A9' });
    const finished = technicianApplicationSchema.array().parse(response.json()).find((x) => x.lot.id === lot.id);
    expect(finished!.devices).toEqual([
      { id: missionIds[0], serialNumber: 'SN-0', clientName: 'Client 0', done: true },
      { id: missionIds[1], serialNumber: 'SN-1', clientName: 'Client 1', done: false },
    ]);
  });

  it('writes each application as the server wrote it in JavaScript from its rows (decision 044)', async () => {
    const a = await trainedTechnician();
    const models = ['zoll', 'Éclair', 'Apple', 'élan', 'Defibtech'];
    const withModels = async (values: Partial<typeof missionBatches.$inferInsert>) => {
      const { lot, missionIds } = await createLot(values, models.length);
      for (const [i, id] of missionIds.entries()) await ctx.db.update(missions).set({ defibrillatorModel: models[i]! }).where(eq(missions.id, id));
      return { lot, missionIds };
    };
    const blank = await withModels({ title: 'Guillemets " et \\ et \u0001 contrôle', description: ' \u00a0\t\u2009\n', priceCents: 12_345, deadline: null });
    const plain = await withModels({ title: 'Lot 🚑 accentué', description: 'Texte « tel quel »', priceCents: 1, tags: [], departments: [] });
    const done = await withModels({ title: 'Lot terminé', priceCents: 99_999 });
    const single = await createLot({ title: 'Lot d’une mission', description: null }, 1);
    await ctx.db.execute(sql`update mission_batches set deadline = '2026-10-01 18:00:00.123999+00' where id = ${plain.lot.id}`);
    await ctx.db
      .update(missionBatches)
      .set({ status: 'completed', defibrillatorsSum: 7, defibrillatorsDone: 3, amountPerDefibCents: 33_333 })
      .where(eq(missionBatches.id, done.lot.id));
    await ctx.db.insert(applications).values([
      { batchId: blank.lot.id, technicianId: a.technician.id, status: 'En attente', adminComment: 'Ligne 1\nLigne "2"' },
      { batchId: plain.lot.id, technicianId: a.technician.id, status: 'Recruté', appliedAt: new Date('2026-03-02T10:00:00Z') },
      { batchId: done.lot.id, technicianId: a.technician.id, status: 'Terminé' },
      { missionId: single.missionIds[0]!, technicianId: a.technician.id, status: 'pending' },
    ]);
    await ctx.db.execute(sql`update applications set applied_at = '2026-03-01 10:00:00.987654+00' where batch_id = ${blank.lot.id}`);

    const response = await as(ctx.app, a.cookie)({ method: 'GET', url: '/api/applications' });
    expect(response.statusCode).toBe(200);
    const strict = technicianApplicationSchema
      .extend({ lot: applicationLotSchema.strict(), devices: z.array(treatedDeviceSchema.strict()).nullable() })
      .strict()
      .array();
    const answered = strict.parse(JSON.parse(response.body));

    const rows = await ctx.db
      .select({ application: applications, lot: missionBatches })
      .from(applications)
      .leftJoin(missions, eq(missions.id, applications.missionId))
      .innerJoin(missionBatches, sql`${missionBatches.id} = coalesce(${applications.batchId}, ${missions.batchId})`)
      .where(eq(applications.technicianId, a.technician.id));
    const french = new Intl.Collator('fr').compare;
    const expected = rows.map(({ application, lot }) => ({
      id: application.id,
      batchId: application.batchId,
      missionId: application.missionId,
      technicianId: application.technicianId,
      status: application.status,
      appliedAt: isoTime(application.appliedAt),
      adminComment: application.adminComment,
      lot: {
        id: lot.id,
        title: lot.title,
        description: lotDescription(lot.description),
        price: centsToEuros(lot.priceCents),
        departments: lot.departments,
        tags: lot.tags,
        deadline: isoTime(lot.deadline),
        status: lot.status,
        defibrillatorCount: lot.status === 'completed' ? lot.defibrillatorsSum : lot.missionCount,
        defibrillatorsDone: lot.defibrillatorsDone,
        amountPerDefib: centsToEuros(lot.amountPerDefibCents),
        candidateCount: lot.applicationCount,
        models: [...lot.missionModels].sort(french),
      },
      finalRevenue: application.status === 'Terminé' ? centsToEuros(lot.amountPerDefibCents * lot.defibrillatorsDone) : null,
      devices:
        application.status === 'Terminé'
          ? done.missionIds.map((id, i) => ({ id, serialNumber: `SN-${i}`, clientName: `Client ${i}`, done: false }))
          : null,
    }));
    const byId = <T extends { id: string }>(items: T[]) => Object.fromEntries(items.map((item) => [item.id, item]));
    expect(answered).toHaveLength(4);
    expect(byId(answered)).toEqual(byId(expected));
    // What the rules above come to, spelled out: the references cannot both be wrong the same way unnoticed.
    const [first] = answered.filter((x) => x.lot.id === blank.lot.id);
    expect(first).toMatchObject({ appliedAt: '2026-03-01T10:00:00.987Z', lot: { description: 'Lot de missions de maintenance', price: 123.45, deadline: null } });
    expect(answered.find((x) => x.lot.id === plain.lot.id)).toMatchObject({ appliedAt: '2026-03-02T10:00:00.000Z', lot: { deadline: '2026-10-01T18:00:00.123Z', price: 0.01, models: ['Apple', 'Defibtech', 'Éclair', 'élan', 'zoll'] } });
    expect(answered.find((x) => x.lot.id === done.lot.id)).toMatchObject({ finalRevenue: 999.99, lot: { defibrillatorCount: 7, amountPerDefib: 333.33 } });
  });

  it('skips an application whose lot is gone, and validates the filters', async () => {
    const a = await trainedTechnician();
    const [loose] = await ctx.db.insert(missions).values({ title: 'Sans lot', status: 'active' }).returning();
    await ctx.db.insert(applications).values({ missionId: loose!.id, technicianId: a.technician.id, status: 'pending' });
    const response = await as(ctx.app, a.cookie)({ method: 'GET', url: '/api/applications' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
    const bad = await as(ctx.app, a.cookie)({ method: 'GET', url: '/api/applications?status=Inconnu' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: 'Statut de candidature invalide' });
  });
});
