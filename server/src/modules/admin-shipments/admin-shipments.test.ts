import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { technicianOptionSchema } from '@maillon/common/schemas/money';
import { shipmentLotOptionSchema, shipmentSchema, shipmentSummarySchema } from '@maillon/common/schemas/shipments';
import { applications, missionBatches, missions, shipments } from '../../db/schema';
import { ensureSystemLot } from '../lifecycle/lifecycle.service';
import { checkTechnicianPicker } from '../../../test/technician-picker';
import { as, countRows, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';

let ctx: TestContext;
let adminCookie: string;
let techCookie: string;
let lotId: string;
let noRelayLotId: string;
let emptyLotId: string;
let recruitId: string;

async function shipmentStatus(id: string) {
  const [row] = await ctx.db.select({ status: shipments.status }).from(shipments).where(eq(shipments.id, id));
  return row?.status;
}

async function create(body: Record<string, unknown>) {
  return as(ctx.app, adminCookie)({ method: 'POST', url: '/api/shipments', payload: body });
}

beforeAll(async () => {
  ctx = await createTestContext();
  const admin = await createAdmin(ctx.db);
  adminCookie = await login(ctx.app, admin.email);
  const recruit = await createTechnician(ctx.db, {
    firstName: 'Camille',
    lastName: 'Expédiée',
    preferredRelayPoint: 'Relais Paris Centre, 75011 Paris',
  });
  recruitId = recruit.technician.id;
  techCookie = await login(ctx.app, recruit.technician.email);
  const other = await createTechnician(ctx.db, { firstName: 'Julien', lastName: 'Sansrelais', preferredRelayPoint: null });
  const [lot, noRelay, empty] = await ctx.db
    .insert(missionBatches)
    .values([{ title: 'Paris Est' }, { title: 'Lyon Centre' }, { title: 'Lot sans recrue' }])
    .returning();
  lotId = lot!.id;
  noRelayLotId = noRelay!.id;
  emptyLotId = empty!.id;
  await ctx.db.insert(applications).values([
    { batchId: lotId, technicianId: recruitId, status: 'Recruté' },
    { batchId: noRelayLotId, technicianId: other.technician.id, status: 'Recruté' },
    { batchId: emptyLotId, technicianId: other.technician.id, status: 'En attente' },
  ]);
});
afterAll(async () => {
  await ctx.close();
});

describe('POST /api/shipments', () => {
  it('creates a draft for the lot’s recruit, to its relay point, carrier Mondial Relay, date today by default', async () => {
    const response = await create({ batchId: lotId, content: 'Électrodes adulte x2', trackingNumber: ' MR123456 ' });
    expect(response.statusCode).toBe(201);
    const shipment = shipmentSchema.parse(response.json());
    expect(shipment).toMatchObject({
      batchId: lotId,
      technicianId: recruitId,
      technicianName: 'Camille Expédiée',
      status: 'draft',
      carrier: 'Mondial Relay',
      destination: 'Relais Paris Centre, 75011 Paris',
      destinationPostalCode: 'Non renseigné',
      missionTitle: 'Paris Est',
      content: 'Électrodes adulte x2',
      trackingNumber: 'MR123456',
      deliveredDate: null,
    });
    expect(shipment.shippedDate?.slice(0, 10)).toBe(new Date().toISOString().slice(0, 10));
  });

  it('ignores a technician or destination sent by the client and keeps the given date and status', async () => {
    const { technician } = await createTechnician(ctx.db);
    const response = await create({
      batchId: noRelayLotId,
      technicianId: technician.id,
      destination: 'Ailleurs',
      status: 'in_transit',
      shippedDate: '2026-03-02',
      destinationPostalCode: '69003',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      technicianName: 'Julien Sansrelais',
      destination: 'Aucun point relais configuré',
      destinationPostalCode: '69003',
      status: 'in_transit',
      shippedDate: '2026-03-02T12:00:00.000Z',
    });
  });

  it.each([
    [{}, 'Veuillez sélectionner un lot de mission'],
    [{ batchId: '' }, 'Veuillez sélectionner un lot de mission'],
    [{ batchId: 'pas-un-lot' }, 'Veuillez sélectionner un lot de mission'],
    [{ batchId: '00000000-0000-4000-8000-000000000000', status: 'delivered' }, 'Le statut doit être Brouillon ou Expédié'],
    [{ batchId: '00000000-0000-4000-8000-000000000000', shippedDate: 'demain' }, 'Date invalide'],
  ])('refuses %j with 400 "%s" and writes nothing', async (body, message) => {
    const before = await countRows(ctx.db, 'shipments');
    const response = await create(body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', message });
    expect(await countRows(ctx.db, 'shipments')).toBe(before);
  });

  it('refuses an unknown lot (404), a lot without recruit (409), the system lot (400), a mission of another lot (400)', async () => {
    const before = await countRows(ctx.db, 'shipments');
    const unknown = await create({ batchId: crypto.randomUUID() });
    expect(unknown.statusCode).toBe(404);
    const noRecruit = await create({ batchId: emptyLotId });
    expect(noRecruit.statusCode).toBe(409);
    expect(noRecruit.json().message).toBe('Aucun technicien n’est recruté sur ce lot');
    const systemLot = await create({ batchId: await ensureSystemLot(ctx.db) });
    expect(systemLot.statusCode).toBe(400);
    const [foreign] = await ctx.db.insert(missions).values({ title: 'Ailleurs', batchId: noRelayLotId }).returning();
    const wrongMission = await create({ batchId: lotId, missionId: foreign!.id });
    expect(wrongMission.statusCode).toBe(400);
    expect(await countRows(ctx.db, 'shipments')).toBe(before);
  });
});

describe('GET /api/shipments/admin, /summary, /lot-options', () => {
  it('filters by technician, lot, status and text (title, technician, destination, content, tracking), paged', async () => {
    const get = (q: string) => as(ctx.app, adminCookie)({ method: 'GET', url: `/api/shipments/admin${q}` });
    const all = await get('');
    expect(all.statusCode).toBe(200);
    const list = shipmentSchema.array().parse(all.json());
    expect(list.length).toBe(2);
    expect(all.headers['x-total-count']).toBe('2');

    expect((await get(`?technicianId=${recruitId}`)).json()).toHaveLength(1);
    expect((await get(`?batchId=${noRelayLotId}`)).json()).toHaveLength(1);
    expect((await get('?status=in_transit')).json()).toHaveLength(1);
    expect((await get('?status=all')).json()).toHaveLength(2);
    for (const text of ['paris est', 'sansrelais', 'Camille Exp', 'aucun point', 'électrodes', 'mr1234']) {
      expect((await get(`?search=${encodeURIComponent(text)}`)).json(), text).toHaveLength(1);
    }
    const page = await get('?limit=1&offset=1');
    expect(page.json()).toHaveLength(1);
    expect(page.headers['x-total-count']).toBe('2');
    expect((await get('?status=perdu')).statusCode).toBe(400);
  });

  it('summary gives counts per pill, and no longer the technicians (searched on their own route)', async () => {
    const response = await as(ctx.app, adminCookie)({ method: 'GET', url: '/api/shipments/admin/summary' });
    expect(response.statusCode).toBe(200);
    const summary = shipmentSummarySchema.strict().parse(response.json());
    expect(summary.counts).toEqual({ all: 2, draft: 1, in_transit: 1, delivered: 0, cancelled: 0 });
    const searched = await as(ctx.app, adminCookie)({ method: 'GET', url: '/api/shipments/admin/summary?search=paris' });
    expect(searched.json().counts).toEqual({ all: 1, draft: 1, in_transit: 0, delivered: 0, cancelled: 0 });
    // Without a filter the counts are the kept ones (row_counts): they follow a parcel's change of status.
    await ctx.db.update(shipments).set({ status: 'delivered' }).where(eq(shipments.status, 'in_transit'));
    const moved = await as(ctx.app, adminCookie)({ method: 'GET', url: '/api/shipments/admin/summary' });
    expect(moved.json().counts).toEqual({ all: 2, draft: 1, in_transit: 0, delivered: 1, cancelled: 0 });
    await ctx.db.update(shipments).set({ status: 'in_transit' }).where(eq(shipments.status, 'delivered'));
  });

  it('lot options are the active lots with a recruit, with the destination', async () => {
    const response = await as(ctx.app, adminCookie)({ method: 'GET', url: '/api/shipments/admin/lot-options' });
    expect(response.statusCode).toBe(200);
    const options = shipmentLotOptionSchema.array().parse(response.json());
    expect(options.map((o) => [o.title, o.technicianName, o.destination])).toEqual([
      ['Lyon Centre', 'Julien Sansrelais', 'Aucun point relais configuré'],
      ['Paris Est', 'Camille Expédiée', 'Relais Paris Centre, 75011 Paris'],
    ]);
  });
});

describe('GET /api/shipments/admin/lot-options (the lot picker of the shipment modals)', () => {
  const options = async (query: string) => {
    const response = await as(ctx.app, adminCookie)({ method: 'GET', url: `/api/shipments/admin/lot-options${query}` });
    expect(response.statusCode, query).toBe(200);
    return shipmentLotOptionSchema.strict().array().parse(response.json());
  };
  const titles = async (query: string) => (await options(query)).map((o) => o.title);
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const { technician: paul } = await createTechnician(ctx.db, {
      firstName: 'Paul',
      lastName: 'Lotpicker',
      preferredRelayPoint: 'Relais Gare, 69003 Lyon',
    });
    const lots = await ctx.db
      .insert(missionBatches)
      .values(
        [
          'Colipicker Alpha',
          'Colipicker Bravo',
          'Colipicker Charlie',
          'Colipicker Zulu 100% neuf',
          'Colipicker Zulu 100 pièces',
          'Colipicker Zulu a_b',
          'Colipicker Zulu axb',
          'Colipicker Zulu c\\d',
          'Colipicker sans recrue',
          'Colipicker terminé',
        ].map((title) => ({ title, status: title === 'Colipicker terminé' ? 'completed' : 'active' })),
      )
      .returning({ id: missionBatches.id, title: missionBatches.title });
    for (const lot of lots) ids[lot.title] = lot.id;
    ids.system = await ensureSystemLot(ctx.db);
    await ctx.db.insert(applications).values([
      ...lots.map((lot) => ({
        batchId: lot.id,
        technicianId: paul.id,
        status: lot.title === 'Colipicker sans recrue' ? 'En attente' : 'Recruté',
      })),
      // Recruited on, but never offered: the system lot only holds the devices of cancelled missions.
      { batchId: ids.system, technicianId: paul.id, status: 'Recruté' },
    ]);
    const [system] = await ctx.db
      .select({ hasRecruit: missionBatches.hasRecruit })
      .from(missionBatches)
      .where(eq(missionBatches.id, ids.system));
    expect(system?.hasRecruit).toBe(true);
  });

  it('searches the title case-insensitively, by title, at most `limit` (20 by default), with the recipient', async () => {
    const eligible = [
      'Colipicker Alpha',
      'Colipicker Bravo',
      'Colipicker Charlie',
    ];
    const all = await options('?search=colipicker');
    expect(all.slice(0, 3).map((o) => o.title)).toEqual(eligible);
    // The finished lot, the lot without a recruit and the system lot are left out.
    expect(all).toHaveLength(8);
    expect(all.map((o) => o.title)).not.toContain('Colipicker sans recrue');
    expect(all.map((o) => o.title)).not.toContain('Colipicker terminé');
    expect(all[1]).toEqual({
      batchId: ids['Colipicker Bravo'],
      title: 'Colipicker Bravo',
      technicianId: expect.any(String),
      technicianName: 'Paul Lotpicker',
      destination: 'Relais Gare, 69003 Lyon',
    });
    expect(await titles('?search=COLIPICKER%20br')).toEqual(['Colipicker Bravo']);
    expect(await titles('?search=%20%20picker%20ch%20%20')).toEqual(['Colipicker Charlie']);
    expect(await titles('?search=colipicker&limit=2')).toEqual(['Colipicker Alpha', 'Colipicker Bravo']);
    expect(await titles('?search=colipicker&limit=1')).toEqual(['Colipicker Alpha']);
    expect(await titles(`?search=${encodeURIComponent('missions annulées')}`)).toEqual([]);
    expect(await titles('?search=sans%20recrue')).toEqual([]);
    expect(await titles('?search=aucun')).toEqual([]);

    // Without a search: the first lots by title, 20 unless asked otherwise.
    const expected = await ctx.db.execute<{ title: string }>(sql`select title from mission_batches
      where status = 'active' and not is_system and has_recruit order by title, id`);
    const every = expected.rows.map((r) => r.title);
    expect(every.length).toBeGreaterThan(8);
    expect(await titles('')).toEqual(every.slice(0, 20));
    expect(await titles('?limit=3')).toEqual(every.slice(0, 3));
    expect(await titles('?search=&limit=50')).toEqual(every.slice(0, 50));
  });

  it('searches %, _ and \\ as text, not as LIKE wildcards', async () => {
    expect(await titles(`?search=${encodeURIComponent('100%')}`)).toEqual(['Colipicker Zulu 100% neuf']);
    expect(await titles(`?search=${encodeURIComponent('%')}`)).toEqual(['Colipicker Zulu 100% neuf']);
    expect(await titles(`?search=${encodeURIComponent('a_b')}`)).toEqual(['Colipicker Zulu a_b']);
    expect(await titles(`?search=${encodeURIComponent('_')}`)).toEqual(['Colipicker Zulu a_b']);
    expect(await titles(`?search=${encodeURIComponent('c\\d')}`)).toEqual(['Colipicker Zulu c\\d']);
    expect(await titles(`?search=${encodeURIComponent('zulu 100')}`).then((t) => t.sort())).toEqual([
      'Colipicker Zulu 100 pièces',
      'Colipicker Zulu 100% neuf',
    ]);
  });

  it('reads one lot’s option by `batchId`, and nothing for a lot a parcel cannot be made for', async () => {
    expect(await options(`?batchId=${ids['Colipicker Charlie']}`)).toEqual([
      {
        batchId: ids['Colipicker Charlie'],
        title: 'Colipicker Charlie',
        technicianId: expect.any(String),
        technicianName: 'Paul Lotpicker',
        destination: 'Relais Gare, 69003 Lyon',
      },
    ]);
    expect(await options(`?batchId=${emptyLotId}`)).toEqual([]);
    expect(await options(`?batchId=${ids['Colipicker terminé']}`)).toEqual([]);
    expect(await options(`?batchId=${ids.system}`)).toEqual([]);
    expect(await options(`?batchId=${crypto.randomUUID()}`)).toEqual([]);
    expect(await titles(`?batchId=${ids['Colipicker Charlie']}&search=alpha`)).toEqual([]);
  });

  it('refuses a bad limit, a search over 200 characters or a bad lot id with a French message, changing nothing', async () => {
    const before = [await countRows(ctx.db, 'shipments'), await countRows(ctx.db, 'mission_batches')];
    const limitMessage = 'Nombre de lots invalide (entre 1 et 50)';
    for (const [query, message] of [
      ['?limit=0', limitMessage],
      ['?limit=51', limitMessage],
      ['?limit=abc', limitMessage],
      ['?limit=2.5', limitMessage],
      [`?search=${'a'.repeat(201)}`, 'Recherche trop longue (200 caractères maximum)'],
      ['?batchId=pas-un-lot', 'Lot inconnu'],
    ] as const) {
      const response = await as(ctx.app, adminCookie)({ method: 'GET', url: `/api/shipments/admin/lot-options${query}` });
      expect(response.statusCode, query).toBe(400);
      expect(response.json(), query).toMatchObject({ code: 'VALIDATION_ERROR', message });
    }
    expect([await countRows(ctx.db, 'shipments'), await countRows(ctx.db, 'mission_batches')]).toEqual(before);
  });
});

describe('GET /api/shipments/admin/technicians (the technician picker)', () => {
  it('searches the technicians that have parcels (name either way round, e-mail, company), by name, at most `limit`; refuses bad input in French', async () => {
    await checkTechnicianPicker({
      ctx,
      adminCookie,
      url: '/api/shipments/admin/technicians',
      table: 'shipments',
      withRow: async (technicianId) => {
        await ctx.db.insert(shipments).values({ technicianId, content: 'Piles', status: 'cancelled' });
      },
      family: 'Colisvert',
    });
    // The recruit of this file's lot, who has parcels.
    const found = await as(ctx.app, adminCookie)({ method: 'GET', url: '/api/shipments/admin/technicians?search=Exp%C3%A9di%C3%A9e' });
    expect(technicianOptionSchema.array().parse(found.json()).map((o) => o.name)).toEqual(['Camille Expédiée']);
  });
});

describe('PATCH /api/shipments/:id, /ship, /cancel', () => {
  async function newDraft() {
    const response = await create({ batchId: lotId, content: 'Piles' });
    return response.json().id as string;
  }

  it('edits fields and sets the status freely; delivered sets the delivery date, leaving it clears it', async () => {
    const id = await newDraft();
    const edit = (payload: Record<string, unknown>) =>
      as(ctx.app, adminCookie)({ method: 'PATCH', url: `/api/shipments/${id}`, payload });
    const edited = await edit({
      content: 'Batterie',
      trackingNumber: 'MR999',
      destinationPostalCode: '',
      shippedDate: '2026-04-01',
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      content: 'Batterie',
      trackingNumber: 'MR999',
      destinationPostalCode: 'Non renseigné',
      shippedDate: '2026-04-01T12:00:00.000Z',
    });
    const delivered = await edit({ status: 'delivered' });
    expect(delivered.json().status).toBe('delivered');
    expect(delivered.json().deliveredDate).not.toBeNull();
    const back = await edit({ status: 'cancelled' });
    expect(back.json()).toMatchObject({ status: 'cancelled', deliveredDate: null });
    const moved = await edit({ batchId: noRelayLotId, status: 'draft' });
    expect(moved.json()).toMatchObject({
      batchId: noRelayLotId,
      missionTitle: 'Lyon Centre',
      technicianName: 'Julien Sansrelais',
      destination: 'Aucun point relais configuré',
      status: 'draft',
    });
    const invalid = await edit({ status: 'perdu' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().message).toBe('Statut inconnu');
    const noRecruit = await edit({ batchId: emptyLotId });
    expect(noRecruit.statusCode).toBe(409);
    expect((await ctx.db.select().from(shipments).where(eq(shipments.id, id)))[0]!.batchId).toBe(noRelayLotId);
  });

  it('ship: only from Brouillon; sets today as shipping date', async () => {
    const id = await newDraft();
    const ship = () => as(ctx.app, adminCookie)({ method: 'PATCH', url: `/api/shipments/${id}/ship` });
    const shipped = await ship();
    expect(shipped.statusCode).toBe(200);
    expect(shipped.json().status).toBe('in_transit');
    expect(shipped.json().shippedDate.slice(0, 10)).toBe(new Date().toISOString().slice(0, 10));
    const again = await ship();
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'INVALID_TRANSITION',
      message: 'Seule une expédition en brouillon peut être marquée comme expédiée',
    });
    expect(await shipmentStatus(id)).toBe('in_transit');
  });

  it('cancel: from Brouillon or Expédié, never once received; a cancelled parcel stays cancelled', async () => {
    const draft = await newDraft();
    const cancel = (id: string) => as(ctx.app, adminCookie)({ method: 'PATCH', url: `/api/shipments/${id}/cancel` });
    expect((await cancel(draft)).json().status).toBe('cancelled');
    const twice = await cancel(draft);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('Cette expédition est déjà annulée');

    const received = await newDraft();
    await ctx.db.update(shipments).set({ status: 'delivered', deliveredDate: new Date() }).where(eq(shipments.id, received));
    const refused = await cancel(received);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Une expédition réceptionnée ne peut pas être annulée');
    expect(await shipmentStatus(received)).toBe('delivered');
    const ship = await as(ctx.app, adminCookie)({ method: 'PATCH', url: `/api/shipments/${received}/ship` });
    expect(ship.statusCode).toBe(409);
  });

  it('answers 404 for an unknown parcel and 400 for a malformed id', async () => {
    const id = crypto.randomUUID();
    for (const url of [`/api/shipments/${id}`, `/api/shipments/${id}/ship`, `/api/shipments/${id}/cancel`]) {
      const response = await as(ctx.app, adminCookie)({ method: 'PATCH', url, payload: {} });
      expect(response.statusCode, url).toBe(404);
      expect(response.json().message).toBe('Expédition introuvable');
    }
    expect((await as(ctx.app, adminCookie)({ method: 'PATCH', url: '/api/shipments/x/ship' })).statusCode).toBe(400);
  });
});

describe('access', () => {
  it('admin only: 401 anonymous, 403 technician (even the recipient), nothing written', async () => {
    const [row] = await ctx.db
      .select({ id: shipments.id, status: shipments.status })
      .from(shipments)
      .where(eq(shipments.status, 'draft'))
      .limit(1);
    const id = row!.id;
    const before = await countRows(ctx.db, 'shipments');
    const routes = [
      { method: 'GET' as const, url: '/api/shipments/admin' },
      { method: 'GET' as const, url: '/api/shipments/admin/summary' },
      { method: 'GET' as const, url: '/api/shipments/admin/lot-options' },
      { method: 'GET' as const, url: '/api/shipments/admin/lot-options?search=Paris&limit=5' },
      { method: 'GET' as const, url: '/api/shipments/admin/technicians?search=Camille' },
      { method: 'POST' as const, url: '/api/shipments', payload: { batchId: lotId } },
      { method: 'PATCH' as const, url: `/api/shipments/${id}`, payload: { status: 'cancelled' } },
      { method: 'PATCH' as const, url: `/api/shipments/${id}/ship` },
      { method: 'PATCH' as const, url: `/api/shipments/${id}/cancel` },
    ];
    for (const route of routes) {
      expect((await as(ctx.app, null)(route)).statusCode, `${route.method} ${route.url}`).toBe(401);
      expect((await as(ctx.app, techCookie)(route)).statusCode, `${route.method} ${route.url}`).toBe(403);
    }
    expect(await countRows(ctx.db, 'shipments')).toBe(before);
    expect(await shipmentStatus(id)).toBe('draft');
  });
});
