import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { applications, auditLog, devices, invoices, missionBatches, missions, technicianMissionData } from '../../db/schema';
import { as, countRows, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';
import { ensureSystemLot } from '../lifecycle/lifecycle.service';
import { getMission } from './missions.service';

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

async function lot(values: Partial<typeof missionBatches.$inferInsert> = {}) {
  const [row] = await ctx.db.insert(missionBatches).values({ title: 'Lot test', priceCents: 90_000, ...values }).returning();
  return row!;
}

async function mission(values: Partial<typeof missions.$inferInsert> = {}) {
  const [row] = await ctx.db
    .insert(missions)
    .values({ title: 'Maintenance - Test', status: 'active', serialNumber: `SN-${crypto.randomUUID().slice(0, 8)}`, ...values })
    .returning();
  return row!;
}

async function figures(batchId: string) {
  const [row] = await ctx.db
    .select({ sum: missionBatches.defibrillatorsSum, done: missionBatches.defibrillatorsDone, perDefib: missionBatches.amountPerDefibCents })
    .from(missionBatches)
    .where(eq(missionBatches.id, batchId));
  return row!;
}

describe('GET /api/missions', () => {
  it('searches case-insensitively over each listed field', async () => {
    const fields = ['title', 'description', 'location', 'serialNumber', 'defibrillatorModel', 'visitType', 'observations', 'clientName'] as const;
    for (const field of fields) {
      const token = `Zq${field}${crypto.randomUUID().slice(0, 6)}`;
      const row = await mission({ [field]: `avant ${token} après` });
      const response = await admin({ method: 'GET', url: `/api/missions?search=${encodeURIComponent(token.toUpperCase())}` });
      expect(response.statusCode, field).toBe(200);
      expect(response.json().map((m: { id: string }) => m.id), field).toEqual([row.id]);
      expect(response.headers['x-total-count'], field).toBe('1');
      expect(response.json()[0], field).not.toHaveProperty('total');
    }
    const shared = `Zqpage${crypto.randomUUID().slice(0, 6)}`;
    for (let i = 0; i < 3; i += 1) await mission({ title: `${shared} ${i}` });
    const second = await admin({ method: 'GET', url: `/api/missions?search=${shared}&limit=2&offset=2` });
    expect(second.json()).toHaveLength(1);
    expect(second.headers['x-total-count']).toBe('3');
    const past = await admin({ method: 'GET', url: `/api/missions?search=${shared}&limit=2&offset=6` });
    expect(past.json()).toEqual([]);
    expect(past.headers['x-total-count']).toBe('3');
    const dept = await mission({ department: '2B' });
    const byDepartment = await admin({ method: 'GET', url: '/api/missions?search=2b&limit=100' });
    expect(byDepartment.json().map((m: { id: string }) => m.id)).toContain(dept.id);
    // LIKE wildcards are taken literally.
    expect((await admin({ method: 'GET', url: '/api/missions?search=%25%25%25' })).json()).toEqual([]);
  });

  it('filters by lot, unsorted (À trier) and status, with paging', async () => {
    const l = await lot();
    const inLot = await mission({ batchId: l.id });
    const unsorted = await mission({ status: 'draft' });
    const done = await mission({ status: 'completed' });
    const byLot = await admin({ method: 'GET', url: `/api/missions?batchId=${l.id}` });
    expect(byLot.json().map((m: { id: string }) => m.id)).toEqual([inLot.id]);
    expect(byLot.json()[0]).toMatchObject({ batchTitle: 'Lot test', budget: 0 });
    const unbatched = (await admin({ method: 'GET', url: '/api/missions?unbatched=true&limit=100' })).json().map((m: { id: string }) => m.id);
    expect(unbatched).toContain(unsorted.id);
    expect(unbatched).not.toContain(inLot.id);
    expect(unbatched).not.toContain(done.id);
    const completed = (await admin({ method: 'GET', url: '/api/missions?status=completed&limit=100' })).json();
    expect(completed.every((m: { status: string }) => m.status === 'completed')).toBe(true);
    const page = await admin({ method: 'GET', url: '/api/missions?limit=2' });
    expect(page.json()).toHaveLength(2);
    expect(Number(page.headers['x-total-count'])).toBe(await countRows(ctx.db, 'missions'));
    expect((await admin({ method: 'GET', url: '/api/missions?batchId=nope' })).statusCode).toBe(400);
    expect((await admin({ method: 'GET', url: '/api/missions?status=perdu' })).json().message).toBe('Statut invalide');
    // A technician gets its Recruté lots' devices instead (issue 14, technician-missions.test.ts): none here.
    const asTechnician = await tech({ method: 'GET', url: `/api/missions?batchId=${l.id}` });
    expect(asTechnician.statusCode).toBe(200);
    expect(asTechnician.json()).toEqual([]);
    expect((await anonymous({ method: 'GET', url: '/api/missions' })).statusCode).toBe(401);
  });
});

describe('POST /api/missions', () => {
  it('requires title, description, location, department, budget and deadline', async () => {
    const before = await countRows(ctx.db, 'missions');
    const response = await admin({ method: 'POST', url: '/api/missions', payload: {} });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({
      title: 'Le titre est requis',
      description: 'La description est requise',
      location: 'La localisation est requise',
      department: 'Le département est requis',
      budget: 'Le budget est requis',
      deadline: 'La date limite est requise',
    });
    const bad = await admin({ method: 'POST', url: '/api/missions', payload: { title: 't', description: 'd', location: 'l', department: '75', budget: -1, deadline: 'demain' } });
    expect(bad.json().fields).toEqual({ budget: 'Le budget doit être un nombre positif', deadline: 'Date limite invalide' });
    expect(await countRows(ctx.db, 'missions')).toBe(before);
  });

  it('creates a draft, optionally in an open lot whose figures follow', async () => {
    const l = await lot({ priceCents: 60_000 });
    const payload = { title: 'Nouvelle', description: 'Contrôle', location: '3 rue X, 75011 Paris', department: '75', budget: '120,5', deadline: '2027-03-01' };
    const draft = await admin({ method: 'POST', url: '/api/missions', payload });
    expect(draft.statusCode).toBe(201);
    expect(draft.json()).toMatchObject({ status: 'draft', budget: 120.5, batchId: null, deadline: '2027-03-01T18:00:00.000Z' });
    const inLot = await admin({ method: 'POST', url: '/api/missions', payload: { ...payload, batchId: l.id } });
    expect(inLot.json()).toMatchObject({ batchId: l.id, batchTitle: 'Lot test' });
    expect(await figures(l.id)).toEqual({ sum: 1, done: 0, perDefib: 60_000 });
    const system = await ensureSystemLot(ctx.db);
    expect((await admin({ method: 'POST', url: '/api/missions', payload: { ...payload, batchId: system } })).statusCode).toBe(409);
    expect((await tech({ method: 'POST', url: '/api/missions', payload })).statusCode).toBe(403);
  });
});

describe('PUT /api/missions/:id (edit mission)', () => {
  const edit = {
    serialNumber: 'SN-EDIT-1',
    clientName: 'Théâtre municipal',
    defibrillatorModel: 'Zoll - AED 3',
    visitType: 'Contrôle',
    department: '31',
    completionLink: 'https://formulaires.maillon.fr/edit',
    address: '1 place du Capitole, 31000 Toulouse',
    observations: 'Sous l’escalier',
  };

  it('saves the visit fields (address → location) with the required-field messages', async () => {
    const m = await mission({ visitType: 'Maintenance préventive' });
    const response = await admin({ method: 'PUT', url: `/api/missions/${m.id}`, payload: edit });
    expect(response.statusCode).toBe(200);
    const { address, ...visitFields } = edit;
    expect(response.json()).toMatchObject({ ...visitFields, location: address, title: 'Maintenance - Test' });
    const empty = await admin({ method: 'PUT', url: `/api/missions/${m.id}`, payload: {} });
    expect(empty.json().fields).toEqual({
      serialNumber: 'Le numéro de série ou minicode est requis',
      clientName: 'La dénomination client est requise',
      defibrillatorModel: 'Le modèle défibrillateur est requis',
      visitType: 'Le type de visite est requis',
      department: 'Le département est requis',
      completionLink: 'Le lien de complétion est requis',
      address: "L'adresse postale est requise",
    });
    const url = await admin({ method: 'PUT', url: `/api/missions/${m.id}`, payload: { ...edit, completionLink: 'lien' } });
    expect(url.json().fields.completionLink).toBe('Le lien de complétion doit être une URL valide');
  });

  it('takes the visit type from the mission-edit list, or keeps the current one', async () => {
    const m = await mission({ visitType: 'Maintenance préventive' });
    const kept = await admin({ method: 'PUT', url: `/api/missions/${m.id}`, payload: { ...edit, visitType: 'Maintenance préventive' } });
    expect(kept.statusCode).toBe(200);
    const other = await admin({
      method: 'PUT',
      url: `/api/missions/${m.id}`,
      payload: { ...edit, visitType: 'Maintenance curative', observations: 'Refusé' },
    });
    expect(other.statusCode).toBe(400);
    expect(other.json().fields.visitType).toBe('Veuillez choisir un type de visite de la liste');
    // The refused edit changed nothing and left no journal line: the mission is as the kept edit wrote it.
    const [saved] = await ctx.db
      .select({ visitType: missions.visitType, observations: missions.observations })
      .from(missions)
      .where(eq(missions.id, m.id));
    expect(saved).toEqual({ visitType: 'Maintenance préventive', observations: 'Sous l’escalier' });
    expect(await ctx.db.select({ id: auditLog.id }).from(auditLog).where(eq(auditLog.entityId, m.id))).toHaveLength(1);
    expect((await admin({ method: 'PUT', url: `/api/missions/${crypto.randomUUID()}`, payload: edit })).statusCode).toBe(404);
    expect((await tech({ method: 'PUT', url: `/api/missions/${m.id}`, payload: edit })).statusCode).toBe(403);
  });

  it('answers the mission as a read after it finds it, in its lot, and audits it before and after (decision 062)', async () => {
    const inLot = await lot({ title: 'Lot du Capitole' });
    const m = await mission({ batchId: inLot.id, observations: 'Avant' });
    const before = await getMission(ctx.db, m.id);
    const response = await admin({ method: 'PUT', url: `/api/missions/${m.id}`, payload: edit });
    expect(response.statusCode).toBe(200);
    const read = await getMission(ctx.db, m.id);
    expect(read).toMatchObject({ batchTitle: 'Lot du Capitole', observations: 'Sous l’escalier', serialNumber: 'SN-EDIT-1' });
    expect(response.json()).toEqual(read);
    const [entry] = await ctx.db.select().from(auditLog).where(eq(auditLog.entityId, m.id));
    expect(entry!.action).toBe('mission.update');
    expect(JSON.parse(String(entry!.before))).toEqual(before);
    expect(JSON.parse(String(entry!.after))).toEqual(read);
    // The new serial number points the mission to its device.
    const [linked] = await ctx.db.select({ deviceId: missions.deviceId }).from(missions).where(eq(missions.id, m.id));
    const [device] = await ctx.db.select({ id: devices.id }).from(devices).where(eq(devices.serialNumber, 'SN-EDIT-1'));
    expect(linked!.deviceId).toBe(device!.id);
  });
});

describe('publish, complete, delete', () => {
  it('publishes a draft (idempotent) but not a cancelled mission', async () => {
    const draft = await mission({ status: 'draft' });
    expect((await admin({ method: 'PATCH', url: `/api/missions/${draft.id}/publish` })).json().status).toBe('active');
    expect((await admin({ method: 'PATCH', url: `/api/missions/${draft.id}/publish` })).statusCode).toBe(200);
    const cancelled = await mission({ status: 'cancelled' });
    expect((await admin({ method: 'PATCH', url: `/api/missions/${cancelled.id}/publish` })).statusCode).toBe(409);
    expect((await tech({ method: 'PATCH', url: `/api/missions/${draft.id}/publish` })).statusCode).toBe(403);
  });

  it('completes a mission; with a recruited technician the device counts as done', async () => {
    const { technician } = await createTechnician(ctx.db);
    const l = await lot({ priceCents: 100_000, visibility: 'visible' });
    const [m1, m2] = [await mission({ batchId: l.id }), await mission({ batchId: l.id })];
    const [application] = await ctx.db.insert(applications).values({ batchId: l.id, technicianId: technician.id }).returning();
    expect((await admin({ method: 'PATCH', url: `/api/applications/${application!.id}/status`, payload: { status: 'Recruté' } })).statusCode).toBe(200);
    const response = await admin({ method: 'PUT', url: `/api/missions/${m1!.id}/complete` });
    expect(response.statusCode).toBe(200);
    expect(response.json().status).toBe('completed');
    expect(await figures(l.id)).toEqual({ sum: 2, done: 1, perDefib: 50_000 });
    const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.batchId, l.id));
    expect(invoice).toMatchObject({ validatedAmountCents: 50_000, progression: '1/2' });
    expect((await admin({ method: 'PUT', url: `/api/missions/${m1!.id}/complete` })).statusCode).toBe(200);
    const [progress] = await ctx.db.select().from(technicianMissionData).where(eq(technicianMissionData.missionId, m1!.id));
    expect(progress!.isCompleted).toBe(true);
    void m2;
    const cancelled = await mission({ status: 'cancelled' });
    expect((await admin({ method: 'PUT', url: `/api/missions/${cancelled.id}/complete` })).statusCode).toBe(409);
  });

  it('deletes one mission and recomputes its lot', async () => {
    const l = await lot({ priceCents: 30_000 });
    const [a, b] = [await mission({ batchId: l.id }), await mission({ batchId: l.id })];
    await admin({ method: 'PATCH', url: '/api/missions/move-to-batch', payload: { missionIds: [a!.id, b!.id], batchId: l.id } });
    expect(await figures(l.id)).toEqual({ sum: 2, done: 0, perDefib: 15_000 });
    expect((await tech({ method: 'DELETE', url: `/api/missions/${a!.id}` })).statusCode).toBe(403);
    expect((await admin({ method: 'DELETE', url: `/api/missions/${a!.id}` })).json()).toEqual({ success: true });
    expect(await figures(l.id)).toEqual({ sum: 1, done: 0, perDefib: 30_000 });
    expect((await admin({ method: 'DELETE', url: `/api/missions/${a!.id}` })).statusCode).toBe(404);
  });
});

describe('Organiser: move-to-batch, bulk-delete, PATCH /:id/batch', () => {
  it('says "Aucune mission sélectionnée" when nothing is selected', async () => {
    for (const [method, url, payload] of [
      ['PATCH', '/api/missions/move-to-batch', { missionIds: [], batchId: null }],
      ['PATCH', '/api/missions/move-to-batch', { batchId: null }],
      ['DELETE', '/api/missions/bulk-delete', { missionIds: [] }],
      ['DELETE', '/api/missions/bulk-delete', {}],
    ] as const) {
      const response = await admin({ method, url, payload });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('Aucune mission sélectionnée');
    }
  });

  it('moves missions between lots and back to À trier, recomputing both lots', async () => {
    const from = await lot({ priceCents: 60_000 });
    const to = await lot({ priceCents: 100_000 });
    const ms = [await mission({ batchId: from.id }), await mission({ batchId: from.id }), await mission()];
    await admin({ method: 'PATCH', url: `/api/missions/${ms[0]!.id}/batch`, payload: { batchId: from.id } });
    expect(await figures(from.id)).toEqual({ sum: 2, done: 0, perDefib: 30_000 });

    const move = await admin({ method: 'PATCH', url: '/api/missions/move-to-batch', payload: { missionIds: [ms[1]!.id, ms[2]!.id], batchId: to.id } });
    expect(move.json()).toEqual({ count: 2 });
    expect(await figures(from.id)).toEqual({ sum: 1, done: 0, perDefib: 60_000 });
    expect(await figures(to.id)).toEqual({ sum: 2, done: 0, perDefib: 50_000 });

    const single = await admin({ method: 'PATCH', url: `/api/missions/${ms[1]!.id}/batch`, payload: { batchId: null } });
    expect(single.json()).toMatchObject({ batchId: null, batchTitle: null });
    expect(await figures(to.id)).toEqual({ sum: 1, done: 0, perDefib: 100_000 });
  });

  it('brings a cancelled mission out of the system lot as active, but never into it or into a finished lot', async () => {
    const system = await ensureSystemLot(ctx.db);
    const cancelled = await mission({ batchId: system, status: 'cancelled' });
    const open = await lot();
    const finished = await lot({ status: 'completed' });
    const before = await ctx.db.select().from(missions).where(eq(missions.id, cancelled.id));

    const intoSystem = await admin({ method: 'PATCH', url: '/api/missions/move-to-batch', payload: { missionIds: [cancelled.id], batchId: system } });
    expect(intoSystem.statusCode).toBe(409);
    const intoFinished = await admin({ method: 'PATCH', url: '/api/missions/move-to-batch', payload: { missionIds: [cancelled.id], batchId: finished.id } });
    expect(intoFinished.statusCode).toBe(409);
    const unknown = await admin({ method: 'PATCH', url: '/api/missions/move-to-batch', payload: { missionIds: [cancelled.id], batchId: crypto.randomUUID() } });
    expect(unknown.statusCode).toBe(404);
    const unknownMission = await admin({ method: 'PATCH', url: '/api/missions/move-to-batch', payload: { missionIds: [cancelled.id, crypto.randomUUID()], batchId: open.id } });
    expect(unknownMission.statusCode).toBe(404);
    expect(await ctx.db.select().from(missions).where(eq(missions.id, cancelled.id))).toEqual(before);

    const out = await admin({ method: 'PATCH', url: '/api/missions/move-to-batch', payload: { missionIds: [cancelled.id], batchId: open.id } });
    expect(out.statusCode).toBe(200);
    const [moved] = await ctx.db.select().from(missions).where(eq(missions.id, cancelled.id));
    expect(moved).toMatchObject({ batchId: open.id, status: 'active' });

    const inFinished = await mission({ batchId: finished.id, status: 'completed' });
    const outOfFinished = await admin({ method: 'PATCH', url: '/api/missions/move-to-batch', payload: { missionIds: [inFinished.id], batchId: null } });
    expect(outOfFinished.statusCode).toBe(409);
    const deleteFinished = await admin({ method: 'DELETE', url: '/api/missions/bulk-delete', payload: { missionIds: [inFinished.id] } });
    expect(deleteFinished.statusCode).toBe(409);
  });

  it('bulk-deletes and recomputes every lot concerned', async () => {
    const a = await lot({ priceCents: 10_000 });
    const b = await lot({ priceCents: 10_000 });
    const ms = [await mission({ batchId: a.id }), await mission({ batchId: b.id }), await mission({ batchId: b.id })];
    await admin({ method: 'PATCH', url: '/api/missions/move-to-batch', payload: { missionIds: [ms[0]!.id], batchId: a.id } });
    await admin({ method: 'PATCH', url: '/api/missions/move-to-batch', payload: { missionIds: [ms[1]!.id, ms[2]!.id], batchId: b.id } });
    expect((await tech({ method: 'DELETE', url: '/api/missions/bulk-delete', payload: { missionIds: [ms[0]!.id] } })).statusCode).toBe(403);
    const response = await admin({ method: 'DELETE', url: '/api/missions/bulk-delete', payload: { missionIds: [ms[0]!.id, ms[1]!.id] } });
    expect(response.json()).toEqual({ count: 2 });
    expect(await figures(a.id)).toEqual({ sum: 0, done: 0, perDefib: 0 });
    expect(await figures(b.id)).toEqual({ sum: 1, done: 0, perDefib: 10_000 });
  });

  it('is closed to technicians and anonymous callers', async () => {
    const m = await mission();
    const payload = { missionIds: [m.id], batchId: null };
    expect((await tech({ method: 'PATCH', url: '/api/missions/move-to-batch', payload })).statusCode).toBe(403);
    expect((await anonymous({ method: 'PATCH', url: '/api/missions/move-to-batch', payload })).statusCode).toBe(401);
    expect((await tech({ method: 'PATCH', url: `/api/missions/${m.id}/batch`, payload: { batchId: null } })).statusCode).toBe(403);
  });
});

const MODULE_ROUTES = [
  'GET /api/missions/moderation',
  'GET /api/missions/refused',
  'GET /api/jobs/counts',
  'POST /api/missions/manual',
  'PUT /api/jobs/:id',
  'PUT /api/jobs/:id/status',
  'DELETE /api/jobs/:id',
  'POST /api/jobs/:id/validate',
  'POST /api/jobs/import-csv',
  'POST /api/missions',
  'PUT /api/missions/:id',
  'PATCH /api/missions/:id/publish',
  'DELETE /api/missions/:id',
  'PATCH /api/missions/move-to-batch',
  'DELETE /api/missions/bulk-delete',
  'PATCH /api/missions/:id/batch',
  'PUT /api/missions/:id/complete',
  'GET /api/applications/with-technicians',
  'PATCH /api/applications/:id/status',
  'PATCH /api/applications/:id/admin-comment',
  'GET /api/mission-batches',
  'GET /api/mission-batches/completed',
  'GET /api/mission-batches/system',
  'GET /api/mission-batches/:id',
  'POST /api/mission-batches',
  'PUT /api/mission-batches/:id',
  'DELETE /api/mission-batches/:id',
  'PUT /api/mission-batches/:id/complete',
];

describe('route access', () => {
  it('declares every admin route of issue 7 admin-only, and ingestion with the API key', () => {
    const access = (key: string) => ctx.app.routeAccess.find((r) => `${r.method} ${r.url}` === key)?.access;
    for (const key of MODULE_ROUTES) expect(access(key), key).toBe('admin');
    expect(access('POST /api/jobs/ingest')).toBe('ingest');
    expect(access('GET /api/missions')).toBe('technician-or-admin');
  });

  it('answers 403 to a technician and 401 to an anonymous caller on every admin route', async () => {
    const id = crypto.randomUUID();
    for (const key of MODULE_ROUTES) {
      const [method, route] = key.split(' ') as ['GET', string];
      const url = route.replace(':id', id);
      const payload = method === 'GET' ? undefined : {};
      expect((await tech({ method, url, payload })).statusCode, key).toBe(403);
      expect((await anonymous({ method, url, payload })).statusCode, key).toBe(401);
    }
  });
});
