import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { lotDeadlineBounds } from '@maillon/common/schemas/admin-lots';
import { SYSTEM_LOT_TITLE } from '@maillon/common/constants';
import { applications, auditLog, invoices, missionBatches, missions, shipments, technicianMissionData } from '../../db/schema';
import { as, countRows, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';
import { ensureSystemLot } from '../lifecycle/lifecycle.service';

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

const validLot = () => ({
  title: `Lot ${crypto.randomUUID().slice(0, 6)}`,
  description: 'Maintenance annuelle',
  price: '1 000,50',
  departments: ['69', '01'],
  tags: ['Maintenance préventive'],
  deadline: lotDeadlineBounds().max,
});

async function createLot(overrides: Record<string, unknown> = {}) {
  const response = await admin({ method: 'POST', url: '/api/mission-batches', payload: { ...validLot(), ...overrides } });
  expect(response.statusCode).toBe(201);
  return response.json() as { id: string; title: string };
}

async function addMissions(batchId: string, n: number) {
  const rows = await ctx.db
    .insert(missions)
    .values(Array.from({ length: n }, (_, i) => ({ title: `Mission ${i}`, batchId, status: 'active', serialNumber: `SN-LOT-${i}` })))
    .returning({ id: missions.id });
  return rows.map((r) => r.id);
}

describe('POST /api/mission-batches (Créer un lot)', () => {
  it('creates an invisible lot with the decimal price and the deadline at 18:00 UTC', async () => {
    const response = await admin({ method: 'POST', url: '/api/mission-batches', payload: validLot() });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      price: 1000.5,
      departments: ['69', '01'],
      tags: ['Maintenance préventive'],
      visibility: 'invisible',
      status: 'active',
      isSystem: false,
      defibrillatorsSum: 0,
      amountPerDefib: 0,
      applicationCount: 0,
      hasShipments: false,
      recruitedTechnician: null,
      deadline: `${lotDeadlineBounds().max}T18:00:00.000Z`,
    });
    const [row] = await ctx.db.select().from(missionBatches).where(eq(missionBatches.id, response.json().id));
    expect(row!.priceCents).toBe(100_050);
    const [entry] = await ctx.db.select().from(auditLog).where(eq(auditLog.entityId, response.json().id));
    expect(entry!.action).toBe('batch.create');
  });

  it('gives the spec messages and writes nothing', async () => {
    const before = await countRows(ctx.db, 'mission_batches');
    const title = await admin({ method: 'POST', url: '/api/mission-batches', payload: { ...validLot(), title: '  ' } });
    expect(title.statusCode).toBe(400);
    expect(title.json().message).toBe('Veuillez saisir un titre pour le lot');
    const tags = await admin({ method: 'POST', url: '/api/mission-batches', payload: { ...validLot(), tags: ['A', 'B', 'C'] } });
    expect(tags.json().fields.tags).toBe('Maximum 2 tags sélectionnés...');
    const price = await admin({ method: 'POST', url: '/api/mission-batches', payload: { ...validLot(), price: 'beaucoup' } });
    expect(price.json().fields.price).toBe('Le prix doit être un nombre positif');
    const negative = await admin({ method: 'POST', url: '/api/mission-batches', payload: { ...validLot(), price: -5 } });
    expect(negative.json().fields.price).toBe('Le prix doit être un nombre positif');
    const year = Number(lotDeadlineBounds().max.slice(0, 4));
    const late = await admin({ method: 'POST', url: '/api/mission-batches', payload: { ...validLot(), deadline: `${year + 1}-01-01` } });
    expect(late.json().fields.deadline).toBe(`La date limite doit être comprise entre aujourd'hui et le 31/12/${year}`);
    const past = await admin({ method: 'POST', url: '/api/mission-batches', payload: { ...validLot(), deadline: '2020-06-01' } });
    expect(past.json().fields.deadline).toMatch(/^La date limite doit être comprise/);
    const department = await admin({ method: 'POST', url: '/api/mission-batches', payload: { ...validLot(), departments: ['00'] } });
    expect(department.json().fields['departments.0']).toBe('Département inconnu');
    expect(await countRows(ctx.db, 'mission_batches')).toBe(before);
    expect((await tech({ method: 'POST', url: '/api/mission-batches', payload: validLot() })).statusCode).toBe(403);
    expect((await anonymous({ method: 'POST', url: '/api/mission-batches', payload: validLot() })).statusCode).toBe(401);
    expect(await countRows(ctx.db, 'mission_batches')).toBe(before);
  });
});

describe('GET /api/mission-batches', () => {
  it('lists active non-system lots with figures, candidates and shipments; search reaches the missions', async () => {
    const lot = await createLot({ title: 'Lot Croix-Rousse', price: 300 });
    const missionIds = await addMissions(lot.id, 3);
    await admin({ method: 'PATCH', url: '/api/missions/move-to-batch', payload: { missionIds, batchId: lot.id } });
    await ctx.db.update(missions).set({ observations: 'Boîtier jaune fluo' }).where(eq(missions.id, missionIds[0]!));
    const { technician } = await createTechnician(ctx.db);
    await ctx.db.insert(applications).values({ batchId: lot.id, technicianId: technician.id });
    await ctx.db.insert(shipments).values({ batchId: lot.id, technicianId: technician.id });
    await ensureSystemLot(ctx.db);
    const [finished] = await ctx.db.insert(missionBatches).values({ title: 'Fini', status: 'completed' }).returning();

    const response = await admin({ method: 'GET', url: '/api/mission-batches?limit=100' });
    expect(response.statusCode).toBe(200);
    const list = response.json() as { id: string; title: string }[];
    expect(list.length).toBe(Number(response.headers['x-total-count']));
    const ids = list.map((l) => l.id);
    expect(ids).not.toContain(finished!.id);
    expect(list.some((l) => l.title === SYSTEM_LOT_TITLE)).toBe(false);
    expect(list.find((l) => l.id === lot.id)).toMatchObject({
      defibrillatorsSum: 3,
      amountPerDefib: 100,
      applicationCount: 1,
      pendingApplicationCount: 1,
      hasShipments: true,
    });
    const search = await admin({ method: 'GET', url: '/api/mission-batches?search=JAUNE' });
    expect(search.json().map((l: { id: string }) => l.id)).toEqual([lot.id]);
    const byTitle = await admin({ method: 'GET', url: '/api/mission-batches?search=croix-rousse' });
    expect(byTitle.json().map((l: { id: string }) => l.id)).toEqual([lot.id]);
    expect((await tech({ method: 'GET', url: '/api/mission-batches' })).statusCode).toBe(403);
  });

  it('reads one lot and the system lot', async () => {
    const lot = await createLot();
    expect((await admin({ method: 'GET', url: `/api/mission-batches/${lot.id}` })).json().id).toBe(lot.id);
    expect((await admin({ method: 'GET', url: `/api/mission-batches/${crypto.randomUUID()}` })).statusCode).toBe(404);
    const system = await admin({ method: 'GET', url: '/api/mission-batches/system' });
    expect(system.json()).toMatchObject({ title: SYSTEM_LOT_TITLE, isSystem: true, visibility: 'invisible', price: 0 });
    expect((await tech({ method: 'GET', url: `/api/mission-batches/${lot.id}` })).statusCode).toBe(403);
  });
});

describe('PUT /api/mission-batches/:id (Modifier)', () => {
  it('changes the fields and the visibility; the figures follow the price', async () => {
    const lot = await createLot({ price: 100 });
    await addMissions(lot.id, 2);
    const response = await admin({ method: 'PUT', url: `/api/mission-batches/${lot.id}`, payload: { ...validLot(), title: 'Renommé', price: 301, visibility: 'visible', tags: [] } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ title: 'Renommé', price: 301, visibility: 'visible', defibrillatorsSum: 2, amountPerDefib: 150.5, tags: [] });
    const keep = await admin({ method: 'PUT', url: `/api/mission-batches/${lot.id}`, payload: { ...validLot(), title: 'Renommé' } });
    expect(keep.json().visibility).toBe('visible');
    const bad = await admin({ method: 'PUT', url: `/api/mission-batches/${lot.id}`, payload: { ...validLot(), visibility: 'publique' } });
    expect(bad.json().message).toBe('Visibilité invalide');
    expect((await tech({ method: 'PUT', url: `/api/mission-batches/${lot.id}`, payload: validLot() })).statusCode).toBe(403);
  });

  it('never prices, shows or edits the system lot, nor a finished lot', async () => {
    const systemId = await ensureSystemLot(ctx.db);
    const response = await admin({ method: 'PUT', url: `/api/mission-batches/${systemId}`, payload: { ...validLot(), price: 10, visibility: 'visible' } });
    expect(response.statusCode).toBe(409);
    const [system] = await ctx.db.select().from(missionBatches).where(eq(missionBatches.id, systemId));
    expect(system).toMatchObject({ priceCents: 0, visibility: 'invisible', title: SYSTEM_LOT_TITLE });
    const [finished] = await ctx.db.insert(missionBatches).values({ title: 'Fini', status: 'completed' }).returning();
    expect((await admin({ method: 'PUT', url: `/api/mission-batches/${finished!.id}`, payload: validLot() })).statusCode).toBe(409);
  });
});

describe('DELETE /api/mission-batches/:id', () => {
  it('deletes an empty lot only; never the system lot', async () => {
    const lot = await createLot();
    const [missionId] = await addMissions(lot.id, 1);
    const refused = await admin({ method: 'DELETE', url: `/api/mission-batches/${lot.id}` });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/Impossible de supprimer un lot contenant des missions/);
    expect(await ctx.db.select().from(missionBatches).where(eq(missionBatches.id, lot.id))).toHaveLength(1);

    await admin({ method: 'PATCH', url: '/api/missions/move-to-batch', payload: { missionIds: [missionId], batchId: null } });
    expect((await tech({ method: 'DELETE', url: `/api/mission-batches/${lot.id}` })).statusCode).toBe(403);
    expect((await admin({ method: 'DELETE', url: `/api/mission-batches/${lot.id}` })).json()).toEqual({ success: true });
    expect((await admin({ method: 'DELETE', url: `/api/mission-batches/${lot.id}` })).statusCode).toBe(404);

    const systemId = await ensureSystemLot(ctx.db);
    const system = await admin({ method: 'DELETE', url: `/api/mission-batches/${systemId}` });
    expect(system.statusCode).toBe(409);
    expect(system.json().message).toBe('Le lot système ne peut pas être supprimé');
  });
});

describe('PUT /api/mission-batches/:id/complete and GET /completed', () => {
  it('finishes through the recruit (undone devices to the system lot), idempotently, and lists it under Terminés', async () => {
    const lot = await createLot({ title: 'Lot à terminer', price: 200 });
    const missionIds = await addMissions(lot.id, 2);
    const { technician } = await createTechnician(ctx.db, { firstName: 'Louise', lastName: 'Bernard' });
    const [application] = await ctx.db.insert(applications).values({ batchId: lot.id, technicianId: technician.id }).returning();
    await admin({ method: 'PATCH', url: `/api/applications/${application!.id}/status`, payload: { status: 'Recruté' } });
    await ctx.db.insert(technicianMissionData).values({ missionId: missionIds[0]!, technicianId: technician.id, isCompleted: true });

    const response = await admin({ method: 'PUT', url: `/api/mission-batches/${lot.id}/complete` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'completed', defibrillatorsSum: 2, defibrillatorsDone: 1 });
    expect((await admin({ method: 'PUT', url: `/api/mission-batches/${lot.id}/complete` })).statusCode).toBe(200);

    const systemId = await ensureSystemLot(ctx.db);
    const [leftover] = await ctx.db.select().from(missions).where(eq(missions.id, missionIds[1]!));
    expect(leftover).toMatchObject({ batchId: systemId, status: 'cancelled' });
    const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.batchId, lot.id));
    expect(invoice).toMatchObject({ status: 'Facture à soumettre', validatedAmountCents: 10_000, progression: '1/2' });

    const completed = await admin({ method: 'GET', url: '/api/mission-batches/completed?limit=100' });
    const entry = completed.json().find((l: { id: string }) => l.id === lot.id);
    expect(entry).toMatchObject({
      recruitedTechnician: { firstName: 'Louise', lastName: 'Bernard' },
      missions: [{ id: missionIds[0], status: 'completed' }],
    });
    const active = await admin({ method: 'GET', url: '/api/mission-batches?limit=100' });
    expect(active.json().map((l: { id: string }) => l.id)).not.toContain(lot.id);
    const system = await admin({ method: 'GET', url: '/api/mission-batches/system' });
    expect(system.json().defibrillatorsSum).toBeGreaterThanOrEqual(1);
  });

  it('refuses the system lot and non-admins', async () => {
    const systemId = await ensureSystemLot(ctx.db);
    expect((await admin({ method: 'PUT', url: `/api/mission-batches/${systemId}/complete` })).statusCode).toBe(409);
    const lot = await createLot();
    expect((await tech({ method: 'PUT', url: `/api/mission-batches/${lot.id}/complete` })).statusCode).toBe(403);
    expect((await anonymous({ method: 'GET', url: '/api/mission-batches/completed' })).statusCode).toBe(401);
    const [row] = await ctx.db.select().from(missionBatches).where(eq(missionBatches.id, lot.id));
    expect(row!.status).toBe('active');
  });

  it('counts: missionsLots of the admin counts equals unsorted missions + active lots', async () => {
    const counts = (await admin({ method: 'GET', url: '/api/admin/counts' })).json();
    const lots = await admin({ method: 'GET', url: '/api/mission-batches?limit=1' });
    const unsorted = await admin({ method: 'GET', url: '/api/missions?unbatched=true&limit=1' });
    expect(counts.missionsLots).toBe(Number(lots.headers['x-total-count']) + Number(unsorted.headers['x-total-count']));
  });
});
