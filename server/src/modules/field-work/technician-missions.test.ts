import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { missionSchema } from '@maillon/common/schemas/admin-missions';
import { applicationWorkSchema, technicianMissionSchema } from '@maillon/common/schemas/field-work';
import { applications, missionBatches, missions, visitAppointments } from '../../db/schema';
import { recruitApplication } from '../lifecycle/lifecycle.service';
import { as, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';

/** GET /api/missions as a technician (issue 14): the devices of its Recruté lots, as the Recruté view shows them. */
let ctx: TestContext;
let techA: Awaited<ReturnType<typeof createTechnician>>;
let techB: Awaited<ReturnType<typeof createTechnician>>;
let asA: ReturnType<typeof as>;
let asB: ReturnType<typeof as>;
let asAdmin: ReturnType<typeof as>;

let lotCounter = 0;
async function makeLot(technicianId: string, { count = 3, title = `Lot ${++lotCounter}`, status = 'Recruté' as 'Recruté' | 'En attente' } = {}) {
  const [lot] = await ctx.db.insert(missionBatches).values({ title, priceCents: 30_000, visibility: 'visible' }).returning({ id: missionBatches.id });
  const rows = await ctx.db
    .insert(missions)
    .values(
      Array.from({ length: count }, (_, k) => ({
        title: `${title} — appareil ${k + 1}`,
        batchId: lot!.id,
        status: 'active',
        serialNumber: `SN-${title}-${k + 1}`,
        defibrillatorModel: 'ZOLL - AED Plus',
        clientName: 'Mairie',
        telSite: '01 02 03 04 05',
        emailSite: k === 0 ? 'site@exemple.fr' : null,
        completionLink: `https://formulaires.test/c?serie=${k + 1}`,
        location: `${k + 1} rue du Test, 75011 Paris`,
        postalCode: '75011',
        city: 'Paris',
        department: '75',
        latitude: 48.859,
        longitude: 2.38,
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, k)),
      })),
    )
    .returning({ id: missions.id });
  const [application] = await ctx.db.insert(applications).values({ batchId: lot!.id, technicianId, status: 'En attente' }).returning({ id: applications.id });
  if (status === 'Recruté') await ctx.db.transaction((tx) => recruitApplication(tx, { applicationId: application!.id }));
  return { lotId: lot!.id, missionIds: rows.map((r) => r.id), applicationId: application!.id };
}

beforeAll(async () => {
  ctx = await createTestContext({ READ_CACHE: true });
  techA = await createTechnician(ctx.db, { firstName: 'Camille' });
  techB = await createTechnician(ctx.db, { firstName: 'Julien' });
  const admin = await createAdmin(ctx.db);
  asA = as(ctx.app, await login(ctx.app, techA.technician.email));
  asB = as(ctx.app, await login(ctx.app, techB.technician.email));
  asAdmin = as(ctx.app, await login(ctx.app, admin.email));
});
afterAll(async () => {
  await ctx.close();
});

describe('GET /api/missions as a technician', () => {
  it('lists its recruited lot’s devices with the Recruté view’s fields and its own progress, paged', async () => {
    const lot = await makeLot(techA.technician.id, { count: 3, title: 'B-Lot Est' });
    const [first, second] = lot.missionIds;
    const save = await asA({
      method: 'PATCH',
      url: `/api/technician-mission-data/${second}/${techA.technician.id}`,
      payload: { plannedVisitDate: '2026-12-03', isCompleted: true, technicianComments: 'Pile changée' },
    });
    expect(save.statusCode).toBe(200);

    const response = await asA({ method: 'GET', url: `/api/missions?batchId=${lot.lotId}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-total-count']).toBe('3');
    const list = technicianMissionSchema.array().parse(response.json());
    expect(list.map((m) => m.id)).toEqual(lot.missionIds);
    // Exactly the Recruté view's devices (GET /api/applications/:id/work), plus the lot and the application.
    const work = applicationWorkSchema.parse((await asA({ method: 'GET', url: `/api/applications/${lot.applicationId}/work` })).json());
    expect(list).toEqual(work.missions.map((m) => ({ ...m, batchId: lot.lotId, batchTitle: 'B-Lot Est', applicationId: lot.applicationId })));
    expect(list[0]).toMatchObject({ id: first, serialNumber: 'SN-B-Lot Est-1', telSite: '01 02 03 04 05', hasEmailSite: true, clientName: 'Mairie', department: '75', latitude: 48.859 });
    expect(list[1]!.progress).toMatchObject({ technicianId: techA.technician.id, isCompleted: true, technicianComments: 'Pile changée', plannedVisitDate: '2026-12-03T12:00:00.000Z' });
    // The site's e-mail stays on the server, as in the Recruté view.
    expect(response.body).not.toContain('site@exemple.fr');

    const page = await asA({ method: 'GET', url: `/api/missions?batchId=${lot.lotId}&limit=2&offset=2` });
    expect(page.json().map((m: { id: string }) => m.id)).toEqual([lot.missionIds[2]]);
    expect(page.headers['x-total-count']).toBe('3');
    const past = await asA({ method: 'GET', url: `/api/missions?batchId=${lot.lotId}&limit=2&offset=10` });
    expect(past.json()).toEqual([]);
    expect(past.headers['x-total-count']).toBe('3');

    // Without batchId: every Recruté lot, lot by lot (title order).
    const other = await makeLot(techA.technician.id, { count: 1, title: 'A-Lot Ouest' });
    const all = technicianMissionSchema.array().parse((await asA({ method: 'GET', url: '/api/missions?limit=100' })).json());
    expect(all.map((m) => m.id)).toEqual([...other.missionIds, ...lot.missionIds]);
    const searched = technicianMissionSchema.array().parse((await asA({ method: 'GET', url: `/api/missions?search=${encodeURIComponent('ouest')}` })).json());
    expect(searched.map((m) => m.id)).toEqual(other.missionIds);
    expect((await asA({ method: 'GET', url: '/api/missions?unbatched=true' })).json()).toEqual([]);
  });

  it('shows each device’s appointment with the site, whatever its lot, as the Recruté view does', async () => {
    const east = await makeLot(techA.technician.id, { count: 2, title: 'Rendez-vous Est' });
    const west = await makeLot(techA.technician.id, { count: 1, title: 'Rendez-vous Ouest' });
    const invited = { invitedAt: new Date('2026-11-20T09:00:00Z'), invitedDate: '2026-12-10', invitedWindow: 'morning', invitedStartTime: '08:00', invitedEndTime: '12:00' };
    await ctx.db.insert(visitAppointments).values([
      { missionId: east.missionIds[1]!, technicianId: techA.technician.id, uid: 'rdv-est', siteEmail: 'site@exemple.fr', ...invited },
      { missionId: west.missionIds[0]!, technicianId: techA.technician.id, uid: 'rdv-ouest', response: 'confirmed', respondedAt: new Date('2026-11-21T10:00:00Z'), ...invited },
      // Another technician's appointment on the same device is not A's.
      { missionId: east.missionIds[0]!, technicianId: techB.technician.id, uid: 'rdv-b', ...invited },
    ]);
    const list = technicianMissionSchema.array().parse((await asA({ method: 'GET', url: '/api/missions?limit=100' })).json());
    for (const lot of [east, west]) {
      const work = applicationWorkSchema.parse((await asA({ method: 'GET', url: `/api/applications/${lot.applicationId}/work` })).json());
      for (const mission of work.missions) expect(list.find((m) => m.id === mission.id)?.appointment, mission.title).toEqual(mission.appointment);
    }
    const byId = new Map(list.map((m) => [m.id, m]));
    expect(byId.get(east.missionIds[0]!)?.appointment).toBeNull();
    expect(byId.get(east.missionIds[1]!)?.appointment).toMatchObject({ invitedSlot: { date: '2026-12-10', window: 'morning' }, response: null });
    expect(byId.get(west.missionIds[0]!)?.appointment).toMatchObject({ invitedSlot: { date: '2026-12-10', window: 'morning' }, response: 'confirmed' });
  });

  it('never lists another technician’s devices: B asking for A’s lot gets an empty list', async () => {
    const lotA = await makeLot(techA.technician.id, { count: 2 });
    const lotB = await makeLot(techB.technician.id, { count: 1 });
    const forA = await asB({ method: 'GET', url: `/api/missions?batchId=${lotA.lotId}` });
    expect(forA.statusCode).toBe(200);
    expect(forA.json()).toEqual([]);
    expect(forA.headers['x-total-count']).toBe('0');
    const own = technicianMissionSchema.array().parse((await asB({ method: 'GET', url: '/api/missions?limit=100' })).json());
    expect(own.map((m) => m.id)).toEqual(lotB.missionIds);
    expect(own.every((m) => m.progress.technicianId === techB.technician.id)).toBe(true);
    const unknown = await asB({ method: 'GET', url: `/api/missions?batchId=${crypto.randomUUID()}` });
    expect(unknown.json()).toEqual([]);
  });

  it('leaves out lots it is not recruited on (applied, or finished: Terminé)', async () => {
    const pending = await makeLot(techA.technician.id, { count: 2, status: 'En attente' });
    expect((await asA({ method: 'GET', url: `/api/missions?batchId=${pending.lotId}` })).json()).toEqual([]);
    const finished = await makeLot(techA.technician.id, { count: 1 });
    expect((await asA({ method: 'GET', url: `/api/missions?batchId=${finished.lotId}` })).json()).toHaveLength(1);
    await ctx.db.update(applications).set({ status: 'Terminé' }).where(eq(applications.id, finished.applicationId));
    // A finished lot is history (its work view stays readable); the list is what is left to do.
    expect((await asA({ method: 'GET', url: `/api/missions?batchId=${finished.lotId}` })).json()).toEqual([]);
    expect((await asA({ method: 'GET', url: `/api/applications/${finished.applicationId}/work` })).statusCode).toBe(200);
    const all = (await asA({ method: 'GET', url: '/api/missions?limit=100' })).json().map((m: { id: string }) => m.id);
    expect(all).not.toContain(pending.missionIds[0]);
    expect(all).not.toContain(finished.missionIds[0]);
  });

  it('answers 401 anonymously and 400 with a French message for a bad batchId or page', async () => {
    const anonymous = await as(ctx.app, null)({ method: 'GET', url: '/api/missions' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().message).toBe('Vous devez être connecté');
    const bad = await asA({ method: 'GET', url: '/api/missions?batchId=pas-un-lot' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: 'Identifiant de lot invalide', fields: { batchId: 'Identifiant de lot invalide' } });
    expect((await asA({ method: 'GET', url: '/api/missions?limit=0' })).statusCode).toBe(400);
  });

  it('keeps the admin’s answer: the mission table’s fields for the same lot', async () => {
    const lot = await makeLot(techA.technician.id, { count: 2 });
    const response = await asAdmin({ method: 'GET', url: `/api/missions?batchId=${lot.lotId}` });
    expect(response.statusCode).toBe(200);
    const list = missionSchema.array().parse(response.json());
    expect(list.map((m) => m.id).sort()).toEqual([...lot.missionIds].sort());
    expect(Object.keys(response.json()[0]).sort()).toEqual(Object.keys(missionSchema.shape).sort());
    // The admin sees the site e-mail itself, and the lot's title, as before.
    expect(list.map((m) => m.emailSite)).toContain('site@exemple.fr');
    expect(list.every((m) => m.batchId === lot.lotId && m.batchTitle === `Lot ${lotCounter}`)).toBe(true);
  });

  it('shows a progress change on the next read (read cache)', async () => {
    const lot = await makeLot(techA.technician.id, { count: 1 });
    const url = `/api/missions?batchId=${lot.lotId}`;
    expect((await asA({ method: 'GET', url })).json()[0].progress.isCompleted).toBe(false);
    await asA({ method: 'PATCH', url: `/api/technician-mission-data/${lot.missionIds[0]}/${techA.technician.id}`, payload: { isCompleted: true } });
    expect((await asA({ method: 'GET', url })).json()[0].progress.isCompleted).toBe(true);
  });
});
