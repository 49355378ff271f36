import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { parcelSchema } from '@maillon/common/schemas/parcels';
import { missionBatches, shipments } from '../../db/schema';
import { as, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';

let ctx: TestContext;
let techA: Awaited<ReturnType<typeof createTechnician>>;
let techB: Awaited<ReturnType<typeof createTechnician>>;
let cookieA: string;
let cookieB: string;
let cookieAdmin: string;
const ids: Record<string, string> = {};

const list = (cookie: string | null, query: string) => as(ctx.app, cookie)({ method: 'GET', url: `/api/shipments?${query}` });
const parcels = (body: unknown) => z.array(parcelSchema).parse(body);

beforeAll(async () => {
  ctx = await createTestContext();
  techA = await createTechnician(ctx.db);
  techB = await createTechnician(ctx.db);
  const admin = await createAdmin(ctx.db);
  [cookieA, cookieB, cookieAdmin] = await Promise.all([login(ctx.app, techA.technician.email), login(ctx.app, techB.technician.email), login(ctx.app, admin.email)]);
  const [lot] = await ctx.db.insert(missionBatches).values({ title: 'Lyon Centre' }).returning({ id: missionBatches.id });
  const rows = await ctx.db
    .insert(shipments)
    .values([
      { technicianId: techA.technician.id, missionTitle: 'Paris Est - maintenance préventive', status: 'in_transit', trackingNumber: 'MR84512369', shippedDate: new Date('2026-11-02T10:00:00Z'), destination: 'Relais Paris Centre, 75011 Paris', content: 'Électrodes adultes' },
      { technicianId: techA.technician.id, missionTitle: 'Paris Est - maintenance préventive', status: 'draft', destination: 'Relais Paris Centre, 75011 Paris', content: 'Batterie' },
      { technicianId: techA.technician.id, batchId: lot!.id, status: 'delivered', trackingNumber: 'MR83990154', shippedDate: new Date('2026-10-01T10:00:00Z'), deliveredDate: new Date('2026-10-03T10:00:00Z'), content: 'Piles' },
      { technicianId: techA.technician.id, missionTitle: 'Annulé', status: 'cancelled', content: 'Sacoche' },
      { technicianId: techB.technician.id, missionTitle: 'Paris Est - maintenance préventive', status: 'in_transit', trackingNumber: 'MR00000001', content: 'Électrodes' },
    ])
    .returning({ id: shipments.id });
  [ids.transit, ids.draft, ids.delivered, ids.cancelled, ids.otherTech] = rows.map((r) => r.id) as [string, string, string, string, string];
});
afterAll(async () => {
  await ctx.close();
});

describe('GET /api/shipments', () => {
  it('lists only the technician’s own parcels, on the way first, with the total in X-Total-Count', async () => {
    const response = await list(cookieA, `technicianId=${techA.technician.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-total-count']).toBe('4');
    const items = parcels(response.json());
    expect(items.map((p) => p.id)).toEqual([ids.transit, ids.draft, ids.delivered, ids.cancelled]);
    // The lot title stands in for a missing mission title.
    expect(items[2]!.missionTitle).toBe('Lyon Centre');
    const page = await list(cookieA, `technicianId=${techA.technician.id}&limit=1&offset=1`);
    expect(parcels(page.json()).map((p) => p.id)).toEqual([ids.draft]);
    expect(page.headers['x-total-count']).toBe('4');
    // Past the last page: no parcel, and still the total (counted on its own, no row carries it).
    const beyond = await list(cookieA, `technicianId=${techA.technician.id}&limit=2&offset=10`);
    expect(beyond.json()).toEqual([]);
    expect(beyond.headers['x-total-count']).toBe('4');
    // Each item carries the parcel's fields only (the page's total is a header).
    expect(Object.keys(items[0]!)).not.toContain('total');
  });

  it('writes each parcel as its reception answers it (key for key), with text JSON must escape and dates to the millisecond', async () => {
    const techC = await createTechnician(ctx.db);
    const cookieC = await login(ctx.app, techC.technician.email);
    const [lot] = await ctx.db.insert(missionBatches).values({ title: 'Lot "Nord" \\ 🚑' }).returning({ id: missionBatches.id });
    const content = 'Électrodes « adultes »\nBatterie\tx2';
    const [delivered, own] = await ctx.db
      .insert(shipments)
      .values([
        { technicianId: techC.technician.id, batchId: lot!.id, status: 'delivered', carrier: 'Colissimo', trackingNumber: null, shippedDate: new Date('2026-10-01T10:00:00.120Z'), deliveredDate: new Date('2026-10-03T23:59:59.999Z'), content },
        { technicianId: techC.technician.id, batchId: lot!.id, missionTitle: 'Titre propre', status: 'cancelled', destination: null, content: null },
      ])
      .returning({ id: shipments.id });
    const items = z.array(parcelSchema.strict()).parse((await list(cookieC, `technicianId=${techC.technician.id}`)).json());
    expect(items.map((p) => p.id)).toEqual([delivered!.id, own!.id]);
    // Receiving a parcel already delivered changes nothing and answers it as Node writes it (toParcel).
    const received = await as(ctx.app, cookieC)({ method: 'PATCH', url: `/api/shipments/${delivered!.id}/receive` });
    expect(received.statusCode).toBe(200);
    expect(items[0]).toEqual(received.json());
    expect(Object.keys(items[0]!)).toEqual(Object.keys(received.json()));
    expect(items).toEqual([
      { id: delivered!.id, status: 'delivered', missionId: null, batchId: lot!.id, missionTitle: 'Lot "Nord" \\ 🚑', carrier: 'Colissimo', trackingNumber: null, destination: null, content, shippedDate: '2026-10-01T10:00:00.120Z', deliveredDate: '2026-10-03T23:59:59.999Z' },
      { id: own!.id, status: 'cancelled', missionId: null, batchId: lot!.id, missionTitle: 'Titre propre', carrier: 'Mondial Relay', trackingNumber: null, destination: null, content: null, shippedDate: null, deliveredDate: null },
    ]);
  });

  it('searches mission, status label, carrier, tracking number, destination, content and shipped date', async () => {
    const search = async (text: string) => parcels((await list(cookieA, `technicianId=${techA.technician.id}&search=${encodeURIComponent(text)}`)).json()).map((p) => p.id);
    expect(await search('Paris Est')).toEqual([ids.transit, ids.draft]);
    expect(await search('Lyon')).toEqual([ids.delivered]);
    expect(await search('expédié')).toEqual([ids.transit]);
    expect(await search('brouillon')).toEqual([ids.draft]);
    expect(await search('mondial')).toHaveLength(4);
    expect(await search('MR8399')).toEqual([ids.delivered]);
    expect(await search('75011')).toEqual([ids.transit, ids.draft]);
    expect(await search('électrodes')).toEqual([ids.transit]);
    expect(await search('02/11/2026')).toEqual([ids.transit]);
    expect(await search('100%_')).toEqual([]);
  });

  it('answers 404 for another technician’s list, 401 anonymous, 400 without technicianId; the admin may read', async () => {
    expect((await list(cookieB, `technicianId=${techA.technician.id}`)).statusCode).toBe(404);
    expect((await list(null, `technicianId=${techA.technician.id}`)).statusCode).toBe(401);
    const missing = await list(cookieA, '');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Identifiant de technicien invalide');
    expect((await list(cookieAdmin, `technicianId=${techA.technician.id}`)).statusCode).toBe(200);
  });
});

describe('PATCH /api/shipments/:id/receive', () => {
  it('marks a parcel on its way as delivered with the date; idempotent', async () => {
    const response = await as(ctx.app, cookieA)({ method: 'PATCH', url: `/api/shipments/${ids.transit}/receive` });
    expect(response.statusCode).toBe(200);
    const parcel = parcelSchema.parse(response.json());
    expect(parcel.status).toBe('delivered');
    expect(Date.now() - Date.parse(parcel.deliveredDate!)).toBeLessThan(60_000);
    const again = parcelSchema.parse((await as(ctx.app, cookieA)({ method: 'PATCH', url: `/api/shipments/${ids.transit}/receive` })).json());
    expect(again.deliveredDate).toBe(parcel.deliveredDate);
    const draft = await as(ctx.app, cookieA)({ method: 'PATCH', url: `/api/shipments/${ids.draft}/receive` });
    expect(draft.json().status).toBe('delivered');
  });

  it('refuses another technician’s parcel (404), a cancelled one (409), the admin (403), anonymous (401)', async () => {
    const before = await ctx.db.select({ status: shipments.status, delivered: shipments.deliveredDate }).from(shipments).where(eq(shipments.id, ids.otherTech!));
    expect((await as(ctx.app, cookieA)({ method: 'PATCH', url: `/api/shipments/${ids.otherTech}/receive` })).statusCode).toBe(404);
    expect((await as(ctx.app, cookieA)({ method: 'PATCH', url: `/api/shipments/${crypto.randomUUID()}/receive` })).statusCode).toBe(404);
    const cancelled = await as(ctx.app, cookieA)({ method: 'PATCH', url: `/api/shipments/${ids.cancelled}/receive` });
    expect(cancelled.statusCode).toBe(409);
    expect(cancelled.json().message).toMatch(/annulé/);
    expect((await as(ctx.app, cookieAdmin)({ method: 'PATCH', url: `/api/shipments/${ids.otherTech}/receive` })).statusCode).toBe(403);
    expect((await as(ctx.app, null)({ method: 'PATCH', url: `/api/shipments/${ids.otherTech}/receive` })).statusCode).toBe(401);
    const after = await ctx.db.select({ status: shipments.status, delivered: shipments.deliveredDate }).from(shipments).where(eq(shipments.id, ids.otherTech!));
    expect(after).toEqual(before);
    const [cancelledRow] = await ctx.db.select({ status: shipments.status }).from(shipments).where(eq(shipments.id, ids.cancelled!));
    expect(cancelledRow!.status).toBe('cancelled');
  });
});
