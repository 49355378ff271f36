import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import {
  applicationWorkSchema,
  distanceResultSchema,
  missionProgressSchema,
  NO_SITE_EMAIL,
  sortRouteResponseSchema,
  VISIT_DATE_REQUIRED,
} from '@maillon/common/schemas/field-work';
import { SYSTEM_LOT_TITLE } from '@maillon/common/constants';
import { applications, comments, emailOutbox, invoices, missionBatches, missions, shipments, technicianMissionData, technicians, visitAppointments } from '../../db/schema';
import { recruitApplication } from '../lifecycle/lifecycle.service';
import { as, countRows, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';

let ctx: TestContext;
let techA: Awaited<ReturnType<typeof createTechnician>>;
let techB: Awaited<ReturnType<typeof createTechnician>>;
let cookieA: string;
let cookieB: string;
let cookieAdmin: string;

/** Home of technician A: Paris 11e. Devices around Paris. */
const SPOTS = [
  { postalCode: '75011', city: 'Paris', lat: 48.85905, lon: 2.38003 },
  { postalCode: '93200', city: 'Saint-Denis', lat: 48.92964, lon: 2.35929 },
  { postalCode: '92100', city: 'Boulogne-Billancourt', lat: 48.8364, lon: 2.23907 },
  { postalCode: '94000', city: 'Créteil', lat: 48.7904, lon: 2.4556 },
  { postalCode: '95100', city: 'Argenteuil', lat: 48.9478, lon: 2.2474 },
  { postalCode: '77100', city: 'Meaux', lat: 48.9601, lon: 2.8788 },
];

let lotCounter = 0;
/** A lot of `count` devices with an application of `technicianId`, recruited unless told otherwise. */
async function makeLot(technicianId: string, { count = 3, price = 300, recruit = true, withEmail = true } = {}) {
  lotCounter += 1;
  const [lot] = await ctx.db
    .insert(missionBatches)
    .values({ title: `Lot test ${lotCounter}`, description: 'Lot de test', priceCents: price * 100, departments: ['75', '93'], tags: ['Maintenance'], visibility: 'visible' })
    .returning({ id: missionBatches.id });
  const rows = await ctx.db
    .insert(missions)
    .values(
      Array.from({ length: count }, (_, k) => {
        const spot = SPOTS[k % SPOTS.length]!;
        return {
          title: `Maintenance - Site ${lotCounter}-${k + 1}`,
          batchId: lot!.id,
          status: 'active',
          serialNumber: `SN-T-${lotCounter}-${k + 1}`,
          defibrillatorModel: k % 2 === 0 ? 'ZOLL - AED Plus' : null,
          visitType: 'Maintenance préventive',
          telSite: '01 02 03 04 05',
          emailSite: withEmail ? `site${lotCounter}-${k + 1}@exemple.fr` : null,
          completionLink: `https://formulaires.test/completion?serie=SN-T-${lotCounter}-${k + 1}`,
          location: `${k + 1} rue du Test, ${spot.postalCode} ${spot.city}`,
          postalCode: spot.postalCode,
          city: spot.city,
          department: spot.postalCode.slice(0, 2),
          latitude: spot.lat,
          longitude: spot.lon,
          createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, k)),
        };
      }),
    )
    .returning({ id: missions.id });
  const [application] = await ctx.db
    .insert(applications)
    .values({ batchId: lot!.id, technicianId, status: 'En attente' })
    .returning({ id: applications.id });
  if (recruit) await ctx.db.transaction((tx) => recruitApplication(tx, { applicationId: application!.id }));
  return { lotId: lot!.id, missionIds: rows.map((r) => r.id), applicationId: application!.id };
}

async function lotFigures(lotId: string) {
  const [lot] = await ctx.db
    .select({ sum: missionBatches.defibrillatorsSum, done: missionBatches.defibrillatorsDone, perDefib: missionBatches.amountPerDefibCents, status: missionBatches.status })
    .from(missionBatches)
    .where(eq(missionBatches.id, lotId));
  return lot!;
}

async function invoiceOf(lotId: string, technicianId: string) {
  const [invoice] = await ctx.db
    .select({ status: invoices.status, validated: invoices.validatedAmountCents, progression: invoices.progression })
    .from(invoices)
    .where(and(eq(invoices.batchId, lotId), eq(invoices.technicianId, technicianId)));
  return invoice ?? null;
}

async function snapshot(lotId: string, technicianId: string) {
  const progress = await ctx.db
    .select({ missionId: technicianMissionData.missionId, isCompleted: technicianMissionData.isCompleted, date: technicianMissionData.plannedVisitDate })
    .from(technicianMissionData)
    .where(eq(technicianMissionData.technicianId, technicianId));
  const [application] = await ctx.db.select({ status: applications.status }).from(applications).where(and(eq(applications.batchId, lotId), eq(applications.technicianId, technicianId)));
  return { figures: await lotFigures(lotId), invoice: await invoiceOf(lotId, technicianId), progress: progress.sort((a, b) => a.missionId.localeCompare(b.missionId)), application };
}

const toggle = (cookie: string | null, missionId: string, technicianId: string, isCompleted: boolean) =>
  as(ctx.app, cookie)({ method: 'PATCH', url: `/api/technician-mission-data/${missionId}/${technicianId}`, payload: { isCompleted } });

beforeAll(async () => {
  ctx = await createTestContext({ READ_CACHE: true });
  techA = await createTechnician(ctx.db, { firstName: 'Camille', lastName: 'Laurent', phone: '06 11 22 33 44', address: '10 rue de la Paix', postalCode: '75011', city: 'Paris' });
  techB = await createTechnician(ctx.db, { firstName: 'Julien', lastName: 'Moreau', address: null, postalCode: null, city: null });
  const admin = await createAdmin(ctx.db);
  [cookieA, cookieB, cookieAdmin] = await Promise.all([login(ctx.app, techA.technician.email), login(ctx.app, techB.technician.email), login(ctx.app, admin.email)]);
});
afterAll(async () => {
  await ctx.close();
});

describe('GET /api/applications/:id/work', () => {
  it('gives the recruited technician its lot, devices, progress, admin messages and flags', async () => {
    const lot = await makeLot(techA.technician.id, { count: 3, price: 300 });
    await ctx.db.insert(comments).values([
      { batchId: lot.lotId, technicianId: techA.technician.id, authorRole: 'admin', content: 'Pensez aux électrodes.' },
      { batchId: lot.lotId, technicianId: techB.technician.id, authorRole: 'admin', content: 'Pour un autre technicien' },
    ]);
    await ctx.db.update(applications).set({ adminComment: 'Bienvenue sur ce lot' }).where(eq(applications.id, lot.applicationId));
    const response = await as(ctx.app, cookieA)({ method: 'GET', url: `/api/applications/${lot.applicationId}/work` });
    expect(response.statusCode).toBe(200);
    const work = applicationWorkSchema.parse(response.json());
    expect(work.lot).toMatchObject({ title: `Lot test ${lotCounter}`, price: 300, defibrillatorsSum: 3, defibrillatorsDone: 0, amountPerDefib: 100, finalRevenue: 0, models: ['ZOLL - AED Plus'] });
    expect(work.missions).toHaveLength(3);
    expect(work.missions[0]).toMatchObject({ serialNumber: expect.stringMatching(/^SN-T-/), hasEmailSite: true, telSite: '01 02 03 04 05' });
    expect(work.missions[0]!.progress).toMatchObject({ isCompleted: false, plannedVisitDate: null });
    expect(work.application.adminComment).toBe('Bienvenue sur ce lot');
    expect(work.adminMessages.map((m) => m.content)).toEqual(['Pensez aux électrodes.']);
    expect(work).toMatchObject({ cancellationBlocked: false, canFinish: false, technicianComment: { content: '' } });
    expect(response.body).not.toContain('@exemple.fr');
  });

  it('answers 404 to another technician and for a pending application, 401 anonymous, 200 admin, 400 bad id', async () => {
    const lot = await makeLot(techA.technician.id, { count: 1 });
    const pending = await makeLot(techA.technician.id, { count: 1, recruit: false });
    const url = `/api/applications/${lot.applicationId}/work`;
    expect((await as(ctx.app, cookieB)({ method: 'GET', url })).statusCode).toBe(404);
    expect((await as(ctx.app, cookieA)({ method: 'GET', url: `/api/applications/${pending.applicationId}/work` })).statusCode).toBe(404);
    expect((await as(ctx.app, null)({ method: 'GET', url })).statusCode).toBe(401);
    expect((await as(ctx.app, cookieAdmin)({ method: 'GET', url })).statusCode).toBe(200);
    const bad = await as(ctx.app, cookieA)({ method: 'GET', url: '/api/applications/pas-un-id/work' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Identifiant invalide');
  });

  it('still answers 404 to another technician once the owner has read it (the owner kept in memory), and to an unknown id twice', async () => {
    const lot = await makeLot(techA.technician.id, { count: 1 });
    const url = `/api/applications/${lot.applicationId}/work`;
    expect((await as(ctx.app, cookieA)({ method: 'GET', url })).statusCode).toBe(200);
    expect((await as(ctx.app, cookieB)({ method: 'GET', url })).statusCode).toBe(404);
    expect((await as(ctx.app, cookieB)({ method: 'GET', url: `/api/applications/${lot.applicationId}/technician-comment` })).statusCode).toBe(404);
    const unknown = `/api/applications/${crypto.randomUUID()}/work`;
    expect((await as(ctx.app, cookieA)({ method: 'GET', url: unknown })).statusCode).toBe(404);
    expect((await as(ctx.app, cookieA)({ method: 'GET', url: unknown })).statusCode).toBe(404);
  });

  it('writes the lot’s messages newest first at their instants, the technician’s comment, each device’s own appointment, and the cancellation rule of this technician only', async () => {
    const lot = await makeLot(techA.technician.id, { count: 3 });
    const [first, second, third] = lot.missionIds as [string, string, string];
    // Instants with microseconds, as now() writes them: the answer carries the milliseconds, as toISOString does.
    await ctx.db.execute(sql`
      insert into comments (batch_id, technician_id, author_role, content, created_at) values
        (${lot.lotId}, ${techA.technician.id}, 'admin', 'Ancien message', '2026-03-01 09:00:00.123456+00'),
        (${lot.lotId}, ${techA.technician.id}, 'admin', 'Nouveau message, avec "guillemets"
et retour', '2026-03-02 23:30:00.999999+01'),
        (${lot.lotId}, ${techA.technician.id}, 'technician', 'Accès par le parking', '2026-03-01 12:00:00.5+00'),
        (${lot.lotId}, ${techB.technician.id}, 'admin', 'Pour un autre technicien', '2026-03-03 08:00:00+00')`);
    const stored = await ctx.db
      .select({ content: comments.content, createdAt: comments.createdAt })
      .from(comments)
      .where(and(eq(comments.batchId, lot.lotId), eq(comments.technicianId, techA.technician.id)));
    const at = (content: string) => stored.find((row) => row.content === content)!.createdAt.toISOString();
    // The site confirmed A's first visit; another technician's appointment on the second device and progress on the
    // third are its own.
    const other = await createTechnician(ctx.db, { firstName: 'Inès', lastName: 'Roux' });
    await ctx.db.insert(visitAppointments).values([
      {
        missionId: first,
        technicianId: techA.technician.id,
        uid: 'visite-a',
        invitedAt: new Date('2026-03-04T08:15:00.250Z'),
        invitedDate: '2026-03-10',
        response: 'confirmed',
        respondedAt: new Date('2026-03-05T10:00:00Z'),
      },
      { missionId: second, technicianId: other.technician.id, uid: 'visite-autre', invitedAt: new Date('2026-03-04T08:00:00Z'), invitedDate: '2026-03-11' },
    ]);
    await ctx.db.insert(technicianMissionData).values({ missionId: third, technicianId: other.technician.id, isCompleted: true });

    const response = await as(ctx.app, cookieA)({ method: 'GET', url: `/api/applications/${lot.applicationId}/work` });
    expect(response.statusCode).toBe(200);
    const work = applicationWorkSchema.strict().parse(response.json());
    expect(work.adminMessages).toEqual([
      { id: expect.any(String), content: 'Nouveau message, avec "guillemets"\net retour', createdAt: at('Nouveau message, avec "guillemets"\net retour') },
      { id: expect.any(String), content: 'Ancien message', createdAt: at('Ancien message') },
    ]);
    expect(work.adminMessages.map((m) => m.createdAt)).toEqual(['2026-03-02T22:30:00.999Z', '2026-03-01T09:00:00.123Z']);
    expect(work.technicianComment).toEqual({ content: 'Accès par le parking', updatedAt: '2026-03-01T12:00:00.500Z' });
    const byId = new Map(work.missions.map((m) => [m.id, m]));
    expect(byId.get(first)!.appointment).toEqual({
      invitedAt: '2026-03-04T08:15:00.250Z',
      invitedSlot: { date: '2026-03-10', window: null, startTime: null, endTime: null },
      response: 'confirmed',
      respondedAt: '2026-03-05T10:00:00.000Z',
      proposal: null,
      decision: null,
      decidedAt: null,
    });
    expect(byId.get(second)!.appointment).toBeNull();
    expect(byId.get(third)!.appointment).toBeNull();
    expect(byId.get(third)!.progress.isCompleted).toBe(false);
    expect(work.cancellationBlocked).toBe(false);
  });
});

describe('GET /api/applications/:id/work, devices written by PostgreSQL', () => {
  it('writes every kind of device exactly as the technician’s list of devices (Node) writes it, with the lot’s models in French order and its figures', async () => {
    const lot = await makeLot(techA.technician.id, { count: 6 });
    const ids = lot.missionIds as [string, string, string, string, string, string];
    // Text JSON must escape, a blank site e-mail, coordinates with many digits, models to sort in French (accents, case).
    await ctx.db.update(missions).set({ defibrillatorModel: 'Éco Défib', observations: 'Accès "côté cour"\n\tcode 12\\B — 🫀', emailSite: '   ', latitude: 48.123456789012, longitude: -1.5 }).where(eq(missions.id, ids[0]));
    await ctx.db.update(missions).set({ defibrillatorModel: 'cardiac Science', clientName: null, telSite: null, completionLink: null }).where(eq(missions.id, ids[1]));
    await ctx.db.update(missions).set({ defibrillatorModel: '', latitude: null, longitude: null }).where(eq(missions.id, ids[2]));
    await ctx.db.update(missions).set({ defibrillatorModel: 'ZOLL - AED Plus' }).where(eq(missions.id, ids[3]));
    const patch = (missionId: string, payload: object) =>
      as(ctx.app, cookieA)({ method: 'PATCH', url: `/api/technician-mission-data/${missionId}/${techA.technician.id}`, payload });
    // A morning, a range, a whole day done with comments, a window cleared with its date; the route order of two devices.
    for (const [missionId, payload] of [
      [ids[0], { plannedVisitDate: '2026-12-10', visitWindow: 'morning' }],
      [ids[1], { plannedVisitDate: '2026-12-11', visitWindow: 'range', visitStartTime: '13:30', visitEndTime: '15:45', isCompleted: true, technicianComments: 'Pile « neuve »' }],
      [ids[2], { plannedVisitDate: '2026-12-12', isCompleted: true }],
      [ids[3], { plannedVisitDate: '2026-12-13', visitWindow: 'afternoon' }],
      [ids[3], { plannedVisitDate: null }],
    ] as const) {
      expect((await patch(missionId, payload)).statusCode).toBe(200);
    }
    await ctx.db.update(technicianMissionData).set({ routePosition: 2 }).where(and(eq(technicianMissionData.missionId, ids[2]), eq(technicianMissionData.technicianId, techA.technician.id)));
    await ctx.db.update(technicianMissionData).set({ routePosition: 1, adminComments: 'Vu' }).where(and(eq(technicianMissionData.missionId, ids[1]), eq(technicianMissionData.technicianId, techA.technician.id)));
    // The site's side: invited with a window then a refused proposal; invited for a whole day; a row never invited.
    await ctx.db.insert(visitAppointments).values([
      {
        missionId: ids[0],
        technicianId: techA.technician.id,
        uid: 'visite-riche',
        invitedAt: new Date('2026-12-01T08:00:00.007Z'),
        invitedDate: '2026-12-10',
        invitedWindow: 'morning',
        invitedStartTime: '08:00',
        invitedEndTime: '12:00',
        response: 'proposed',
        respondedAt: new Date('2026-12-02T09:30:00Z'),
        proposedDate: '2026-12-15',
        proposedWindow: 'range',
        proposedStartTime: '10:00',
        proposedEndTime: '11:30',
        proposedMessage: 'Plutôt le "mardi"\nmerci',
        decision: 'refused',
        decidedAt: new Date('2026-12-03T10:00:00Z'),
      },
      { missionId: ids[4], technicianId: techA.technician.id, uid: 'visite-jour', invitedAt: new Date('2026-12-01T08:00:00Z'), invitedDate: '2026-12-20' },
      { missionId: ids[5], technicianId: techA.technician.id, uid: 'visite-annulee', invitedAt: null },
    ]);

    const response = await as(ctx.app, cookieA)({ method: 'GET', url: `/api/applications/${lot.applicationId}/work` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    const work = applicationWorkSchema.strict().parse(response.json());
    const list = await as(ctx.app, cookieA)({ method: 'GET', url: `/api/missions?batchId=${lot.lotId}&limit=100` });
    const fromNode = (list.json() as Record<string, unknown>[]).map(({ batchId: _lot, batchTitle: _title, applicationId: _application, ...device }) => device);
    expect(work.missions).toEqual(fromNode);
    expect(work.missions.map((m) => m.id)).toEqual([ids[1], ids[2], ids[0], ids[3], ids[4], ids[5]]);
    const [routeFirst, , rich, cleared, wholeDay, never] = work.missions;
    expect(rich).toMatchObject({ hasEmailSite: false, latitude: 48.123456789012, longitude: -1.5, observations: 'Accès "côté cour"\n\tcode 12\\B — 🫀' });
    expect(rich!.progress).toMatchObject({ plannedVisitDate: '2026-12-10T12:00:00.000Z', visitWindow: 'morning', visitStartTime: '08:00', visitEndTime: '12:00' });
    expect(rich!.appointment).toEqual({
      invitedAt: '2026-12-01T08:00:00.007Z',
      invitedSlot: { date: '2026-12-10', window: 'morning', startTime: '08:00', endTime: '12:00' },
      response: 'proposed',
      respondedAt: '2026-12-02T09:30:00.000Z',
      proposal: { slot: { date: '2026-12-15', window: 'range', startTime: '10:00', endTime: '11:30' }, message: 'Plutôt le "mardi"\nmerci' },
      decision: 'refused',
      decidedAt: '2026-12-03T10:00:00.000Z',
    });
    expect(routeFirst!.progress).toMatchObject({ routePosition: 1, isCompleted: true, visitWindow: 'range', visitStartTime: '13:30', visitEndTime: '15:45', adminComments: 'Vu', technicianComments: 'Pile « neuve »' });
    expect(cleared!.progress).toMatchObject({ plannedVisitDate: null, visitWindow: null, visitStartTime: null, visitEndTime: null });
    expect(wholeDay!.appointment!.invitedSlot).toEqual({ date: '2026-12-20', window: null, startTime: null, endTime: null });
    expect(never!.appointment).toBeNull();
    expect(never!.progress).toEqual({
      missionId: ids[5],
      technicianId: techA.technician.id,
      plannedVisitDate: null,
      visitWindow: null,
      visitStartTime: null,
      visitEndTime: null,
      isCompleted: false,
      technicianComments: null,
      adminComments: null,
      routePosition: null,
      updatedAt: null,
    });
    expect(work.lot).toMatchObject({ models: ['cardiac Science', 'Éco Défib', 'ZOLL - AED Plus'], defibrillatorsSum: 6, defibrillatorsDone: 2 });
    expect(work.canFinish).toBe(false);
    // Every device done: the screen may finish the lot.
    for (const id of ids) expect((await patch(id, { isCompleted: true })).statusCode).toBe(200);
    const done = applicationWorkSchema.parse((await as(ctx.app, cookieA)({ method: 'GET', url: `/api/applications/${lot.applicationId}/work` })).json());
    expect(done.canFinish).toBe(true);
    expect(done.missions.every((m) => m.progress.isCompleted)).toBe(true);
  });

  it('answers a lot without devices with an empty list that cannot be finished', async () => {
    const lot = await makeLot(techA.technician.id, { count: 1 });
    await ctx.db.update(missions).set({ batchId: null }).where(eq(missions.id, lot.missionIds[0]!));
    const work = applicationWorkSchema.strict().parse((await as(ctx.app, cookieA)({ method: 'GET', url: `/api/applications/${lot.applicationId}/work` })).json());
    expect(work.missions).toEqual([]);
    expect(work.lot.models).toEqual([]);
    expect(work.canFinish).toBe(false);
  });
});

describe('technician mission data', () => {
  it('toggles a device and keeps the lot figures and invoice right after every toggle', async () => {
    const lot = await makeLot(techA.technician.id, { count: 3, price: 300 });
    const [m1, m2, m3] = lot.missionIds as [string, string, string];
    const first = await toggle(cookieA, m1, techA.technician.id, true);
    expect(first.statusCode).toBe(200);
    expect(missionProgressSchema.parse(first.json())).toMatchObject({ missionId: m1, isCompleted: true });
    expect(await lotFigures(lot.lotId)).toMatchObject({ sum: 3, done: 1, perDefib: 10000 });
    expect(await invoiceOf(lot.lotId, techA.technician.id)).toEqual({ status: 'Mission à terminer', validated: 10000, progression: '1/3' });
    await toggle(cookieA, m2, techA.technician.id, true);
    expect(await invoiceOf(lot.lotId, techA.technician.id)).toMatchObject({ validated: 20000, progression: '2/3' });
    await toggle(cookieA, m1, techA.technician.id, false);
    expect(await lotFigures(lot.lotId)).toMatchObject({ done: 1 });
    expect(await invoiceOf(lot.lotId, techA.technician.id)).toMatchObject({ validated: 10000, progression: '1/3' });
    // The POST form of the spec does the same.
    const post = await as(ctx.app, cookieA)({ method: 'POST', url: '/api/technician-mission-data', payload: { missionId: m3, technicianId: techA.technician.id, isCompleted: true } });
    expect(post.statusCode).toBe(200);
    expect(await invoiceOf(lot.lotId, techA.technician.id)).toMatchObject({ validated: 20000, progression: '2/3' });
    const work = applicationWorkSchema.parse((await as(ctx.app, cookieA)({ method: 'GET', url: `/api/applications/${lot.applicationId}/work` })).json());
    expect(work.lot).toMatchObject({ defibrillatorsDone: 2, finalRevenue: 200 });
    expect(work.cancellationBlocked).toBe(true);
  });

  it('keeps what a patch does not send, and counts every device when all are toggled at once', async () => {
    const lot = await makeLot(techA.technician.id, { count: 6, price: 600 });
    const [m1] = lot.missionIds as [string];
    const url = `/api/technician-mission-data/${m1}/${techA.technician.id}`;
    const slot = { plannedVisitDate: '2026-12-09', visitWindow: 'range', visitStartTime: '09:15', visitEndTime: '10:45' };
    expect((await as(ctx.app, cookieA)({ method: 'PATCH', url, payload: { ...slot, technicianComments: 'Badge à l’accueil' } })).statusCode).toBe(200);
    const toggled = await toggle(cookieA, m1, techA.technician.id, true);
    expect(toggled.json()).toMatchObject({ ...slot, plannedVisitDate: '2026-12-09T12:00:00.000Z', isCompleted: true, technicianComments: 'Badge à l’accueil' });
    const commented = await as(ctx.app, cookieA)({ method: 'PATCH', url, payload: { technicianComments: 'Fait' } });
    expect(commented.json()).toMatchObject({ visitWindow: 'range', visitStartTime: '09:15', isCompleted: true, technicianComments: 'Fait' });
    // A window alone keeps the saved date and takes its fixed hours.
    const morning = await as(ctx.app, cookieA)({ method: 'PATCH', url, payload: { visitWindow: 'morning' } });
    expect(morning.json()).toMatchObject({ plannedVisitDate: '2026-12-09T12:00:00.000Z', visitWindow: 'morning', visitStartTime: '08:00', visitEndTime: '12:00' });
    // The lot's screen, read twice (kept by the read cache), then every device toggled at once.
    const work = () => as(ctx.app, cookieA)({ method: 'GET', url: `/api/applications/${lot.applicationId}/work` });
    expect((await work()).json().lot.defibrillatorsDone).toBe(1);
    expect((await work()).json().lot.defibrillatorsDone).toBe(1);
    const answers = await Promise.all(lot.missionIds.map((missionId) => toggle(cookieA, missionId, techA.technician.id, true)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(lot.missionIds.map(() => 200));
    expect(await lotFigures(lot.lotId)).toMatchObject({ sum: 6, done: 6, perDefib: 10000 });
    // Read right after the writes: the read cache knows what the database function wrote (change-tracker FUNCTION_WRITES).
    expect((await work()).json().lot.defibrillatorsDone).toBe(6);
    expect(await invoiceOf(lot.lotId, techA.technician.id)).toEqual({ status: 'Mission à terminer', validated: 60000, progression: '6/6' });
    const undone = await Promise.all(lot.missionIds.slice(0, 4).map((missionId) => toggle(cookieA, missionId, techA.technician.id, false)));
    expect(undone.map((answer) => answer.json().isCompleted)).toEqual([false, false, false, false]);
    expect(await invoiceOf(lot.lotId, techA.technician.id)).toMatchObject({ validated: 20000, progression: '2/6' });
  });

  it('saves a visit date (as that calendar day) and a comment; reads one record and the list', async () => {
    const lot = await makeLot(techA.technician.id, { count: 2 });
    const [m1] = lot.missionIds as [string];
    const url = `/api/technician-mission-data/${m1}/${techA.technician.id}`;
    const saved = await as(ctx.app, cookieA)({ method: 'PATCH', url, payload: { plannedVisitDate: '2026-12-03', technicianComments: '  Code porte 1234 ' } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ plannedVisitDate: '2026-12-03T12:00:00.000Z', technicianComments: 'Code porte 1234' });
    const read = await as(ctx.app, cookieA)({ method: 'GET', url });
    expect(read.json()).toMatchObject({ plannedVisitDate: '2026-12-03T12:00:00.000Z', isCompleted: false });
    const unsaved = await as(ctx.app, cookieA)({ method: 'GET', url: `/api/technician-mission-data/${lot.missionIds[1]}/${techA.technician.id}` });
    expect(unsaved.json()).toMatchObject({ plannedVisitDate: null, isCompleted: false, updatedAt: null });
    const all = await as(ctx.app, cookieA)({ method: 'GET', url: `/api/technician-mission-data/all/${techA.technician.id}?limit=5` });
    expect(all.statusCode).toBe(200);
    expect(Number(all.headers['x-total-count'])).toBeGreaterThanOrEqual(1);
    expect(all.json().length).toBeLessThanOrEqual(5);
    expect((await as(ctx.app, cookieB)({ method: 'GET', url: `/api/technician-mission-data/all/${techA.technician.id}` })).statusCode).toBe(404);
    const cleared = await as(ctx.app, cookieA)({ method: 'PATCH', url, payload: { plannedVisitDate: null } });
    expect(cleared.json().plannedVisitDate).toBeNull();
  });

  it('refuses invalid bodies with French messages and changes nothing', async () => {
    const lot = await makeLot(techA.technician.id, { count: 1 });
    const url = `/api/technician-mission-data/${lot.missionIds[0]}/${techA.technician.id}`;
    const before = await countRows(ctx.db, 'technician_mission_data');
    const empty = await as(ctx.app, cookieA)({ method: 'PATCH', url, payload: {} });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Aucune donnée à enregistrer');
    const badDate = await as(ctx.app, cookieA)({ method: 'PATCH', url, payload: { plannedVisitDate: '2026-02-31' } });
    expect(badDate.statusCode).toBe(400);
    expect(badDate.json().message).toBe('Date de passage invalide');
    const badToggle = await as(ctx.app, cookieA)({ method: 'PATCH', url, payload: { isCompleted: 'oui' } });
    expect(badToggle.statusCode).toBe(400);
    expect(badToggle.json().message).toBe('Valeur Effectué / À faire invalide');
    expect(await countRows(ctx.db, 'technician_mission_data')).toBe(before);
  });

  it('lets nobody else read or write this lot’s progress: 404 technician B, 401 anonymous, 404 unknown device', async () => {
    const lot = await makeLot(techA.technician.id, { count: 2, price: 200 });
    const [m1] = lot.missionIds as [string];
    await toggle(cookieA, m1, techA.technician.id, true);
    const before = await snapshot(lot.lotId, techA.technician.id);
    const urlA = `/api/technician-mission-data/${m1}/${techA.technician.id}`;
    expect((await as(ctx.app, cookieB)({ method: 'GET', url: urlA })).statusCode).toBe(404);
    expect((await toggle(cookieB, m1, techA.technician.id, false)).statusCode).toBe(404);
    // B writing "its own" record on A's lot is refused too: B is not the recruit.
    expect((await toggle(cookieB, m1, techB.technician.id, true)).statusCode).toBe(404);
    expect((await as(ctx.app, cookieB)({ method: 'POST', url: '/api/technician-mission-data', payload: { missionId: m1, technicianId: techB.technician.id, isCompleted: true } })).statusCode).toBe(404);
    expect((await toggle(null, m1, techA.technician.id, false)).statusCode).toBe(401);
    expect((await toggle(cookieA, crypto.randomUUID(), techA.technician.id, true)).statusCode).toBe(404);
    expect(await snapshot(lot.lotId, techA.technician.id)).toEqual(before);
    const rowsB = await ctx.db.select({ id: technicianMissionData.id }).from(technicianMissionData).where(eq(technicianMissionData.technicianId, techB.technician.id));
    expect(rowsB).toHaveLength(0);
  });

  it('leaves everything unchanged when a toggle is refused (finished lot)', async () => {
    const lot = await makeLot(techA.technician.id, { count: 1, price: 100 });
    await toggle(cookieA, lot.missionIds[0]!, techA.technician.id, true);
    expect((await as(ctx.app, cookieA)({ method: 'PATCH', url: `/api/applications/${lot.applicationId}/complete` })).statusCode).toBe(200);
    const before = await snapshot(lot.lotId, techA.technician.id);
    const refused = await toggle(cookieA, lot.missionIds[0]!, techA.technician.id, false);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/terminée/);
    expect(await snapshot(lot.lotId, techA.technician.id)).toEqual(before);
  });

  it('lets only the admin write a non-empty admin comment', async () => {
    const lot = await makeLot(techA.technician.id, { count: 1 });
    const url = `/api/technician-mission-data/${lot.missionIds[0]}/${techA.technician.id}/admin-comment`;
    const ok = await as(ctx.app, cookieAdmin)({ method: 'PATCH', url, payload: { adminComments: 'Vérifier la batterie' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().adminComments).toBe('Vérifier la batterie');
    const empty = await as(ctx.app, cookieAdmin)({ method: 'PATCH', url, payload: { adminComments: '   ' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Veuillez saisir un commentaire');
    expect((await as(ctx.app, cookieA)({ method: 'PATCH', url, payload: { adminComments: 'Moi' } })).statusCode).toBe(403);
    expect((await as(ctx.app, null)({ method: 'PATCH', url, payload: { adminComments: 'Moi' } })).statusCode).toBe(401);
    const read = await as(ctx.app, cookieA)({ method: 'GET', url: `/api/technician-mission-data/${lot.missionIds[0]}/${techA.technician.id}` });
    expect(read.json().adminComments).toBe('Vérifier la batterie');
  });
});

describe('PATCH /api/applications/:id/complete', () => {
  it('refuses to finish while devices are left, and changes nothing', async () => {
    const lot = await makeLot(techA.technician.id, { count: 2 });
    await toggle(cookieA, lot.missionIds[0]!, techA.technician.id, true);
    const before = await snapshot(lot.lotId, techA.technician.id);
    const response = await as(ctx.app, cookieA)({ method: 'PATCH', url: `/api/applications/${lot.applicationId}/complete` });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('Toutes les missions doivent-êtres complétées pour clôturer la mission');
    expect(await snapshot(lot.lotId, techA.technician.id)).toEqual(before);
  });

  it('finishes when every device is done: lot completed, invoice to submit with the full amount; idempotent', async () => {
    const lot = await makeLot(techA.technician.id, { count: 3, price: 1000 });
    for (const id of lot.missionIds) await toggle(cookieA, id, techA.technician.id, true);
    const work = applicationWorkSchema.parse((await as(ctx.app, cookieA)({ method: 'GET', url: `/api/applications/${lot.applicationId}/work` })).json());
    expect(work.canFinish).toBe(true);
    const [{ completedMissions: before }] = (await ctx.db.select({ completedMissions: technicians.completedMissions }).from(technicians).where(eq(technicians.id, techA.technician.id))) as [{ completedMissions: number }];
    const url = `/api/applications/${lot.applicationId}/complete`;
    expect((await as(ctx.app, cookieB)({ method: 'PATCH', url })).statusCode).toBe(404);
    const done = await as(ctx.app, cookieA)({ method: 'PATCH', url });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ id: lot.applicationId, status: 'Terminé' });
    expect((await as(ctx.app, cookieA)({ method: 'PATCH', url })).json().status).toBe('Terminé');
    expect(await lotFigures(lot.lotId)).toMatchObject({ status: 'completed', sum: 3, done: 3 });
    expect(await invoiceOf(lot.lotId, techA.technician.id)).toEqual({ status: 'Facture à soumettre', validated: 100000, progression: '3/3' });
    const [after] = await ctx.db.select({ completedMissions: technicians.completedMissions }).from(technicians).where(eq(technicians.id, techA.technician.id));
    expect(after!.completedMissions).toBe(before + 1);
    // A finished lot stays readable.
    expect((await as(ctx.app, cookieA)({ method: 'GET', url: `/api/applications/${lot.applicationId}/work` })).statusCode).toBe(200);
  });

  it('lets the admin force a finish with devices left: pro rata invoice, leftovers to the system lot', async () => {
    const lot = await makeLot(techA.technician.id, { count: 3, price: 100 });
    await toggle(cookieA, lot.missionIds[0]!, techA.technician.id, true);
    const response = await as(ctx.app, cookieAdmin)({ method: 'PATCH', url: `/api/applications/${lot.applicationId}/complete` });
    expect(response.statusCode).toBe(200);
    expect(await invoiceOf(lot.lotId, techA.technician.id)).toEqual({ status: 'Facture à soumettre', validated: 3333, progression: '1/3' });
    const moved = await ctx.db
      .select({ title: missionBatches.title, status: missions.status })
      .from(missions)
      .innerJoin(missionBatches, eq(missionBatches.id, missions.batchId))
      .where(eq(missions.id, lot.missionIds[1]!));
    expect(moved[0]).toEqual({ title: SYSTEM_LOT_TITLE, status: 'cancelled' });
    expect(await countRows(ctx.db, `audit_log where action = 'application.force-complete'`)).toBe(1);
  });
});

describe('PATCH /api/applications/:id/cancel', () => {
  it('is refused once a device is done, and changes nothing', async () => {
    const lot = await makeLot(techA.technician.id, { count: 2 });
    await toggle(cookieA, lot.missionIds[0]!, techA.technician.id, true);
    const before = await snapshot(lot.lotId, techA.technician.id);
    const response = await as(ctx.app, cookieA)({ method: 'PATCH', url: `/api/applications/${lot.applicationId}/cancel` });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toMatch(/Annulation impossible/);
    expect(await snapshot(lot.lotId, techA.technician.id)).toEqual(before);
  });

  it('is blocked by a shipped parcel', async () => {
    const lot = await makeLot(techA.technician.id, { count: 1 });
    await ctx.db.insert(shipments).values({ batchId: lot.lotId, technicianId: techA.technician.id, status: 'in_transit' });
    const work = applicationWorkSchema.parse((await as(ctx.app, cookieA)({ method: 'GET', url: `/api/applications/${lot.applicationId}/work` })).json());
    expect(work.cancellationBlocked).toBe(true);
    expect((await as(ctx.app, cookieA)({ method: 'PATCH', url: `/api/applications/${lot.applicationId}/cancel` })).statusCode).toBe(409);
  });

  it('cancels its own Recruté application: Annulé, invoice removed, idempotent; others get 404/403/401', async () => {
    const lot = await makeLot(techA.technician.id, { count: 2 });
    await as(ctx.app, cookieA)({ method: 'PATCH', url: `/api/technician-mission-data/${lot.missionIds[0]}/${techA.technician.id}`, payload: { plannedVisitDate: '2026-12-01' } });
    const url = `/api/applications/${lot.applicationId}/cancel`;
    expect((await as(ctx.app, cookieB)({ method: 'PATCH', url })).statusCode).toBe(404);
    expect((await as(ctx.app, cookieAdmin)({ method: 'PATCH', url })).statusCode).toBe(403);
    expect((await as(ctx.app, null)({ method: 'PATCH', url })).statusCode).toBe(401);
    const response = await as(ctx.app, cookieA)({ method: 'PATCH', url });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: lot.applicationId, status: 'Annulé' });
    expect((await as(ctx.app, cookieA)({ method: 'PATCH', url })).json().status).toBe('Annulé');
    expect(await invoiceOf(lot.lotId, techA.technician.id)).toBeNull();
    // Progress records are kept.
    const kept = await ctx.db.select({ id: technicianMissionData.id }).from(technicianMissionData).where(eq(technicianMissionData.missionId, lot.missionIds[0]!));
    expect(kept).toHaveLength(1);
    // The view is gone for the technician.
    expect((await as(ctx.app, cookieA)({ method: 'GET', url: `/api/applications/${lot.applicationId}/work` })).statusCode).toBe(404);
  });
});

describe('PATCH /api/mission-batches/:id/defibrillators-done', () => {
  it('recomputes the figures instead of trusting the client', async () => {
    const lot = await makeLot(techA.technician.id, { count: 2, price: 100 });
    await toggle(cookieA, lot.missionIds[0]!, techA.technician.id, true);
    await ctx.db.update(missionBatches).set({ defibrillatorsDone: 0 }).where(eq(missionBatches.id, lot.lotId));
    const url = `/api/mission-batches/${lot.lotId}/defibrillators-done`;
    const response = await as(ctx.app, cookieA)({ method: 'PATCH', url, payload: { defibrillatorsDone: 99 } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: lot.lotId, defibrillatorsSum: 2, defibrillatorsDone: 1, amountPerDefib: 50 });
    expect((await as(ctx.app, cookieB)({ method: 'PATCH', url, payload: { defibrillatorsDone: 0 } })).statusCode).toBe(404);
    expect((await as(ctx.app, cookieA)({ method: 'PATCH', url, payload: { defibrillatorsDone: -1 } })).statusCode).toBe(400);
    expect(await lotFigures(lot.lotId)).toMatchObject({ done: 1 });
  });
});

describe('POST /api/emails/client-notification', () => {
  it('refuses without a saved visit date, and writes nothing to the outbox', async () => {
    const lot = await makeLot(techA.technician.id, { count: 1 });
    const before = await countRows(ctx.db, 'email_outbox');
    const response = await as(ctx.app, cookieA)({
      method: 'POST',
      url: '/api/emails/client-notification',
      payload: { missionId: lot.missionIds[0], technicianId: techA.technician.id, visitDate: '2026-12-01' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(VISIT_DATE_REQUIRED);
    expect(await countRows(ctx.db, 'email_outbox')).toBe(before);
  });

  it('refuses when the site has no e-mail, or when the date sent is not the saved one', async () => {
    const noMail = await makeLot(techA.technician.id, { count: 1, withEmail: false });
    const missionId = noMail.missionIds[0]!;
    await as(ctx.app, cookieA)({ method: 'PATCH', url: `/api/technician-mission-data/${missionId}/${techA.technician.id}`, payload: { plannedVisitDate: '2026-12-01' } });
    const before = await countRows(ctx.db, 'email_outbox');
    const payload = { missionId, technicianId: techA.technician.id, visitDate: '2026-12-01' };
    const response = await as(ctx.app, cookieA)({ method: 'POST', url: '/api/emails/client-notification', payload });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(NO_SITE_EMAIL);
    const other = await makeLot(techA.technician.id, { count: 1 });
    await as(ctx.app, cookieA)({ method: 'PATCH', url: `/api/technician-mission-data/${other.missionIds[0]}/${techA.technician.id}`, payload: { plannedVisitDate: '2026-12-01' } });
    const mismatch = await as(ctx.app, cookieA)({ method: 'POST', url: '/api/emails/client-notification', payload: { ...payload, missionId: other.missionIds[0], visitDate: '2026-12-02' } });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().message).toBe(VISIT_DATE_REQUIRED);
    const bad = await as(ctx.app, cookieA)({ method: 'POST', url: '/api/emails/client-notification', payload: { ...payload, missionId: 'x' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Identifiant de mission invalide');
    expect(await countRows(ctx.db, 'email_outbox')).toBe(before);
  });

  it('writes the client e-mail with the visit date, the technician’s name and phone', async () => {
    const lot = await makeLot(techA.technician.id, { count: 1 });
    const missionId = lot.missionIds[0]!;
    await as(ctx.app, cookieA)({ method: 'PATCH', url: `/api/technician-mission-data/${missionId}/${techA.technician.id}`, payload: { plannedVisitDate: '2026-12-07' } });
    const payload = { missionId, technicianId: techA.technician.id, visitDate: '2026-12-07' };
    expect((await as(ctx.app, cookieB)({ method: 'POST', url: '/api/emails/client-notification', payload })).statusCode).toBe(404);
    expect((await as(ctx.app, null)({ method: 'POST', url: '/api/emails/client-notification', payload })).statusCode).toBe(401);
    const response = await as(ctx.app, cookieA)({ method: 'POST', url: '/api/emails/client-notification', payload });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ success: true, message: 'Client informé' });
    const [mail] = await ctx.db
      .select({ to: emailOutbox.to, subject: emailOutbox.subject, text: emailOutbox.text, kind: emailOutbox.kind })
      .from(emailOutbox)
      .where(eq(emailOutbox.to, `site${lotCounter}-1@exemple.fr`));
    expect(mail).toBeDefined();
    expect(mail!.kind).toBe('client-notification');
    expect(mail!.subject).toContain('07/12/2026');
    expect(mail!.text).toContain('07/12/2026');
    expect(mail!.text).toContain('Camille Laurent');
    expect(mail!.text).toContain('06 11 22 33 44');
  });
});

describe('POST /api/calculate-distance', () => {
  it('estimates Paris 75001 → Lyon 69001 within 15 % of 465 km', async () => {
    const response = await as(ctx.app, cookieA)({ method: 'POST', url: '/api/calculate-distance', payload: { origin: '1 rue de Rivoli, 75001 Paris', destination: { postalCode: '69001', city: 'Lyon' } } });
    expect(response.statusCode).toBe(200);
    const result = distanceResultSchema.parse(response.json());
    expect(result).toMatchObject({ success: true, source: 'estimate' });
    expect(Math.abs(result.distance! - 465_000) / 465_000).toBeLessThan(0.15);
    expect(result.duration).toBeGreaterThan(5 * 3600);
  });

  it('says success false for an unknown place, 400 for a missing one, 401 anonymous', async () => {
    const unknown = await as(ctx.app, cookieA)({ method: 'POST', url: '/api/calculate-distance', payload: { origin: 'Nulle part', destination: '69001 Lyon' } });
    expect(unknown.json()).toMatchObject({ success: false, distance: null });
    const missing = await as(ctx.app, cookieA)({ method: 'POST', url: '/api/calculate-distance', payload: { origin: '' } });
    expect(missing.statusCode).toBe(400);
    expect((await as(ctx.app, null)({ method: 'POST', url: '/api/calculate-distance', payload: { origin: '75001', destination: '69001' } })).statusCode).toBe(401);
  });
});

describe('POST /api/applications/:id/sort-route', () => {
  it('orders the undone devices as a round trip from home, stores the order and reports the saving', async () => {
    const lot = await makeLot(techA.technician.id, { count: 6 });
    // Done devices are left out of the tour.
    await toggle(cookieA, lot.missionIds[0]!, techA.technician.id, true);
    const response = await as(ctx.app, cookieA)({ method: 'POST', url: `/api/applications/${lot.applicationId}/sort-route` });
    expect(response.statusCode).toBe(200);
    const result = sortRouteResponseSchema.parse(response.json());
    expect(result.sortedCount).toBe(5);
    expect(result.message).toBe('5 défibrillateurs triés par proximité');
    expect(result.savedKm).toBeGreaterThanOrEqual(0);
    expect(result.source).toBe('estimate');
    expect(new Set(result.stops.map((s) => s.missionId))).toEqual(new Set(lot.missionIds.slice(1)));
    expect(result.stops.every((s) => s.distance !== null && s.distance > 0)).toBe(true);
    const legs = result.stops.reduce((sum, s) => sum + s.distance!, 0) + result.returnDistance!;
    expect(result.totalDistance).toBe(legs);
    const work = applicationWorkSchema.parse((await as(ctx.app, cookieA)({ method: 'GET', url: `/api/applications/${lot.applicationId}/work` })).json());
    expect(work.missions.slice(0, 5).map((m) => m.id)).toEqual(result.stops.map((s) => s.missionId));
    expect(work.missions.slice(0, 5).map((m) => m.progress.routePosition)).toEqual([1, 2, 3, 4, 5]);
    // Sorting again saves nothing more.
    const again = sortRouteResponseSchema.parse((await as(ctx.app, cookieA)({ method: 'POST', url: `/api/applications/${lot.applicationId}/sort-route` })).json());
    expect(again.savedKm).toBe(0);
    expect(again.totalDistance).toBe(result.totalDistance);
  });

  it('needs the technician’s address; other technicians get 404', async () => {
    const lotB = await makeLot(techB.technician.id, { count: 2 });
    const url = `/api/applications/${lotB.applicationId}/sort-route`;
    const response = await as(ctx.app, cookieB)({ method: 'POST', url });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Adresse manquante');
    expect((await as(ctx.app, cookieA)({ method: 'POST', url })).statusCode).toBe(404);
    expect((await as(ctx.app, null)({ method: 'POST', url })).statusCode).toBe(401);
    const stored = await ctx.db.select({ id: technicianMissionData.id }).from(technicianMissionData).where(eq(technicianMissionData.technicianId, techB.technician.id));
    expect(stored).toHaveLength(0);
  });
});

describe('technician comment for the admin', () => {
  it('saves one comment per lot (comments table, authorRole technician), clears it when empty', async () => {
    const lot = await makeLot(techA.technician.id, { count: 1 });
    const url = `/api/applications/${lot.applicationId}/technician-comment`;
    const first = await as(ctx.app, cookieA)({ method: 'PUT', url, payload: { content: 'Je passe lundi' } });
    expect(first.statusCode).toBe(200);
    expect(first.json().content).toBe('Je passe lundi');
    // The admin's message on the same lot is not the technician's comment: rewriting it leaves the message alone.
    await ctx.db.insert(comments).values({ batchId: lot.lotId, technicianId: techA.technician.id, authorRole: 'admin', content: 'Message admin' });
    // Autosaves sent together leave one comment, the last one written.
    const saves = await Promise.all(['Je passe', 'Je passe mar', 'Je passe mardi'].map((content) => as(ctx.app, cookieA)({ method: 'PUT', url, payload: { content } })));
    expect(saves.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const second = await as(ctx.app, cookieA)({ method: 'PUT', url, payload: { content: 'Je passe mardi' } });
    expect(second.json().content).toBe('Je passe mardi');
    const rows = await ctx.db
      .select({ content: comments.content, role: comments.authorRole })
      .from(comments)
      .where(eq(comments.batchId, lot.lotId))
      .orderBy(comments.authorRole);
    expect(rows).toEqual([
      { content: 'Message admin', role: 'admin' },
      { content: 'Je passe mardi', role: 'technician' },
    ]);
    expect((await as(ctx.app, cookieA)({ method: 'GET', url })).json().content).toBe('Je passe mardi');
    expect((await as(ctx.app, cookieAdmin)({ method: 'GET', url })).json().content).toBe('Je passe mardi');
    const work = applicationWorkSchema.parse((await as(ctx.app, cookieA)({ method: 'GET', url: `/api/applications/${lot.applicationId}/work` })).json());
    expect(work.technicianComment.content).toBe('Je passe mardi');
    expect(work.adminMessages.map((m) => m.content)).toEqual(['Message admin']);
    await as(ctx.app, cookieA)({ method: 'PUT', url, payload: { content: '  ' } });
    expect(await ctx.db.select({ role: comments.authorRole }).from(comments).where(eq(comments.batchId, lot.lotId))).toEqual([{ role: 'admin' }]);
    // The first autosaves of a lot, sent together, write one comment too: each waits for the one before it.
    const fresh = await makeLot(techA.technician.id, { count: 1 });
    const freshUrl = `/api/applications/${fresh.applicationId}/technician-comment`;
    const firsts = await Promise.all(['A', 'Ac', 'Accès'].map((content) => as(ctx.app, cookieA)({ method: 'PUT', url: freshUrl, payload: { content } })));
    expect(firsts.map((r) => [r.statusCode, typeof r.json().updatedAt])).toEqual([
      [200, 'string'],
      [200, 'string'],
      [200, 'string'],
    ]);
    expect(await ctx.db.select({ id: comments.id }).from(comments).where(eq(comments.batchId, fresh.lotId))).toHaveLength(1);
  });

  it('is refused to others and checks the length', async () => {
    const lot = await makeLot(techA.technician.id, { count: 1 });
    const url = `/api/applications/${lot.applicationId}/technician-comment`;
    expect((await as(ctx.app, cookieB)({ method: 'PUT', url, payload: { content: 'x' } })).statusCode).toBe(404);
    expect((await as(ctx.app, cookieB)({ method: 'GET', url })).statusCode).toBe(404);
    expect((await as(ctx.app, cookieAdmin)({ method: 'PUT', url, payload: { content: 'x' } })).statusCode).toBe(403);
    const long = await as(ctx.app, cookieA)({ method: 'PUT', url, payload: { content: 'x'.repeat(5001) } });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe('Le commentaire doit contenir au plus 5000 caractères');
    expect(await ctx.db.select({ id: comments.id }).from(comments).where(eq(comments.batchId, lot.lotId))).toHaveLength(0);
  });
});
