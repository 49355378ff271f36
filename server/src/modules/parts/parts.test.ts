import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  consumableSchema,
  createPartsShipmentResponseSchema,
  lotPartsSchema,
  partsProposalsPageSchema,
  partsSettingsSchema,
  unusedPartSchema,
  workPartsSchema,
  type LotParts,
  type LotPartsSummary,
} from '@maillon/common/schemas/parts';
import { visitReportContextSchema } from '@maillon/common/schemas/visit-reports';
import { auditLog, devices, lotPartShipments, lotPartsKept, missionBatches, missions, shipmentParts, shipments, technicianMissionData, visitReports } from '../../db/schema';
import { as, countRows, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';
import { dayFromToday, makeLotWithDevices } from '../../../test/device-fixtures';
import * as repo from './parts.repository';

let ctx: TestContext;
let adminCookie: string;
let techCookie: string;
let otherCookie: string;
let technicianId: string;

const admin = () => as(ctx.app, adminCookie);

async function deviceOf(missionId: string): Promise<string> {
  const [row] = await ctx.db.select({ deviceId: missions.deviceId }).from(missions).where(eq(missions.id, missionId));
  return row!.deviceId!;
}

async function setDevice(missionId: string, values: Partial<typeof devices.$inferInsert>) {
  await ctx.db.update(devices).set(values).where(eq(devices.id, await deviceOf(missionId)));
}

async function planVisit(missionId: string, day: string) {
  await ctx.db
    .insert(technicianMissionData)
    .values({ missionId, technicianId, plannedVisitDate: new Date(`${day}T12:00:00Z`) })
    .onConflictDoUpdate({
      target: [technicianMissionData.missionId, technicianMissionData.technicianId],
      set: { plannedVisitDate: new Date(`${day}T12:00:00Z`) },
    });
}

async function lotParts(batchId: string): Promise<LotParts> {
  const response = await admin()({ method: 'GET', url: `/api/admin/mission-batches/${batchId}/parts` });
  expect(response.statusCode, response.body).toBe(200);
  return lotPartsSchema.parse(response.json());
}

/**
 * A lot's line in Expéditions as its own page gives it (computed from the registry on every call): what the list, which
 * reads each lot's kept figures, must answer. Its parts counted from the page's items, one per device and item.
 */
function partsSummaryOf(parts: LotParts): LotPartsSummary {
  return {
    batchId: parts.batchId,
    title: parts.title,
    technician: parts.technician,
    toCheckCount: parts.toCheckCount,
    firstVisitDate: parts.firstVisitDate,
    shipBy: parts.shipBy,
    shipment: parts.shipment,
    shipped: parts.shipped,
    late: parts.late,
    itemCount: parts.items.reduce((n, i) => n + i.quantity, 0),
  };
}

/**
 * A page of proposals as its schema reads it. The route sends its page as JSON text, not through the schema (decision
 * 083): the page must hold nothing the schema would drop.
 */
function proposalsPage(body: unknown) {
  const page = partsProposalsPageSchema.parse(body);
  expect(body).toEqual(page);
  return page;
}

/** The proposals of the given lots (« Missions & Lots »). */
async function proposalsOf(...batchIds: string[]) {
  const response = await admin()({ method: 'GET', url: `/api/admin/parts/proposals?batchIds=${batchIds.join(',')}` });
  expect(response.statusCode, response.body).toBe(200);
  const page = proposalsPage(response.json());
  expect(page.next).toBeNull();
  return page.items;
}

/** Every proposal, page after page as Expéditions reads them (`limit` lots a page). */
async function allProposals(limit = 20) {
  const items: LotPartsSummary[] = [];
  let next: string | null = null;
  do {
    const response = await admin()({ method: 'GET', url: `/api/admin/parts/proposals?limit=${limit}${next ? `&after=${encodeURIComponent(next)}` : ''}` });
    expect(response.statusCode, response.body).toBe(200);
    const page = proposalsPage(response.json());
    expect(page.items.length).toBeLessThanOrEqual(limit);
    items.push(...page.items);
    next = page.next;
  } while (next);
  return items;
}

beforeAll(async () => {
  ctx = await createTestContext({ READ_CACHE: true });
  adminCookie = await login(ctx.app, (await createAdmin(ctx.db)).email);
  const tech = await createTechnician(ctx.db, { firstName: 'Inès', lastName: 'Colis', preferredRelayPoint: 'Relais Tabac du Marché, 75011 Paris' });
  technicianId = tech.technician.id;
  techCookie = await login(ctx.app, tech.technician.email);
  const other = await createTechnician(ctx.db, { firstName: 'Autre', lastName: 'Technicien' });
  otherCookie = await login(ctx.app, other.technician.email);
});
afterAll(async () => {
  await ctx.close();
});

describe('needs per lot', () => {
  it('lists the consumables expiring before the planned visit + margin, by model, and the unknown dates « à vérifier »', async () => {
    const lot = await makeLotWithDevices(ctx.db, { technicianId, serials: ['PZ-1001', 'PZ-1002', 'PZ-1003'] });
    const [expiring, fresh, unknown] = lot.missionIds as [string, string, string];
    const visit = dayFromToday(20);
    for (const id of lot.missionIds) await planVisit(id, visit);
    // Before visit + 90 days: the battery (visit + 89) and the adult electrodes (visit + 10); the paediatric ones are fine.
    await setDevice(expiring, {
      batteryExpiry: addDays(visit, 89),
      adultPadsExpiry: addDays(visit, 10),
      pediatricPadsPresent: true,
      pediatricPadsExpiry: addDays(visit, 200),
    });
    // On the limit day (visit + 90) and after it: nothing to send.
    await setDevice(fresh, { batteryExpiry: addDays(visit, 90), adultPadsExpiry: addDays(visit, 400), pediatricPadsPresent: false });
    await setDevice(unknown, { batteryExpiry: null, adultPadsExpiry: addDays(visit, 1), pediatricPadsPresent: true, pediatricPadsExpiry: null });

    const parts = await lotParts(lot.batchId);
    expect(parts.marginDays).toBe(90);
    expect(parts.technician).toMatchObject({ id: technicianId, name: 'Inès Colis', relayPoint: 'Relais Tabac du Marché, 75011 Paris' });
    const byMission = new Map(parts.devices.map((d) => [d.missionId, d]));
    expect(byMission.get(expiring)).toMatchObject({
      serialNumber: 'PZ-1001',
      model: 'Zoll - AED Plus',
      referenceDate: visit,
      referenceSource: 'visit',
      needs: [
        { kind: 'battery', itemLabel: 'Piles lithium CR123A x10 pour Zoll AED Plus', expiry: addDays(visit, 89) },
        { kind: 'adult_pads', itemLabel: 'Électrodes Zoll CPR-D-padz (AED Plus)', expiry: addDays(visit, 10) },
      ],
      toCheck: [],
    });
    expect(byMission.get(fresh)).toMatchObject({ needs: [], toCheck: [] });
    expect(byMission.get(unknown)).toMatchObject({
      needs: [{ kind: 'adult_pads', itemLabel: 'Électrodes Zoll CPR-D-padz (AED Plus)' }],
      toCheck: [
        { kind: 'battery', reason: 'Date de péremption inconnue' },
        { kind: 'pediatric_pads', reason: 'Date de péremption inconnue' },
      ],
    });
    expect(parts.toCheckCount).toBe(2);
    expect(parts.items).toEqual([
      {
        itemLabel: 'Électrodes Zoll CPR-D-padz (AED Plus)',
        quantity: 2,
        devices: [
          expect.objectContaining({ missionId: expiring, serialNumber: 'PZ-1001' }),
          expect.objectContaining({ missionId: unknown, serialNumber: 'PZ-1003' }),
        ],
      },
      { itemLabel: 'Piles lithium CR123A x10 pour Zoll AED Plus', quantity: 1, devices: [expect.objectContaining({ missionId: expiring })] },
    ]);
    expect(parts.firstVisitDate).toBe(visit);
    expect(parts.shipBy).toBe(addDays(visit, -7));
    expect(parts).toMatchObject({ shipment: null, shipped: false, late: false });
  });

  it('leaves out the visits done, reads the planned day in France, and finds a model’s parts however its name is written', async () => {
    const lot = await makeLotWithDevices(ctx.db, { technicianId, serials: ['PD-4001', 'PD-4002', 'PD-4003', 'PD-4004'] });
    const [lateEvening, done, spaced, noMaker] = lot.missionIds as [string, string, string, string];
    const day = dayFromToday(40);
    // 23:30 UTC is already the next day in France, in winter (00:30) as in summer (01:30).
    await ctx.db.insert(technicianMissionData).values([
      { missionId: lateEvening, technicianId, plannedVisitDate: new Date(`${day}T23:30:00Z`) },
      { missionId: done, technicianId, plannedVisitDate: new Date(`${dayFromToday(5)}T12:00:00Z`), isCompleted: true },
    ]);
    const expiring = { batteryExpiry: dayFromToday(45), adultPadsExpiry: dayFromToday(900), pediatricPadsPresent: false };
    for (const id of lot.missionIds) await setDevice(id, expiring);
    await setDevice(spaced, { manufacturer: '  zoll ', model: 'AED   plus' });
    await setDevice(noMaker, { manufacturer: null, model: 'AED Plus' });
    // The lot's deadline, the reference of the devices without a planned visit, is a day in France too.
    const deadline = dayFromToday(30);
    await ctx.db.update(missionBatches).set({ deadline: new Date(`${deadline}T23:30:00Z`) }).where(eq(missionBatches.id, lot.batchId));

    const parts = await lotParts(lot.batchId);
    expect(parts.devices.map((d) => d.serialNumber)).toEqual(['PD-4001', 'PD-4003', 'PD-4004']);
    const byMission = new Map(parts.devices.map((d) => [d.missionId, d]));
    expect(byMission.get(lateEvening)).toMatchObject({ referenceDate: addDays(day, 1), referenceSource: 'visit' });
    expect(byMission.get(spaced)).toMatchObject({
      referenceDate: addDays(deadline, 1),
      referenceSource: 'deadline',
      model: '  zoll  - AED   plus',
      needs: [{ kind: 'battery', itemLabel: 'Piles lithium CR123A x10 pour Zoll AED Plus', expiry: dayFromToday(45) }],
      toCheck: [],
    });
    expect(byMission.get(noMaker)).toMatchObject({ model: 'AED Plus', needs: [], toCheck: [{ kind: 'battery', reason: 'Aucune pièce de référence pour ce modèle' }] });
    // The visit done five days from now is not the first visit: the one still to do is.
    expect(parts.firstVisitDate).toBe(addDays(day, 1));
    expect(parts.items).toEqual([
      { itemLabel: 'Piles lithium CR123A x10 pour Zoll AED Plus', quantity: 2, devices: [expect.objectContaining({ missionId: lateEvening }), expect.objectContaining({ missionId: spaced })] },
    ]);
    expect(await proposalsOf(lot.batchId)).toEqual([partsSummaryOf(parts)]);
  });

  it('uses the lot deadline without a planned visit, each model’s parts, a kit once, and the margin of Réglages', async () => {
    const zoll = await makeLotWithDevices(ctx.db, { technicianId, serials: ['MM-2001'], model: 'Zoll - AED Plus' });
    const heartsine = await makeLotWithDevices(ctx.db, { technicianId, serials: ['MM-2002'], model: 'HeartSine - samaritan PAD 350P', recruit: false });
    const unknownModel = await makeLotWithDevices(ctx.db, { technicianId, serials: ['MM-2003'], model: 'Nihon Kohden - Cardiolife AED-3100', recruit: false });
    // One lot holding the three models: move the two others' missions into the Zoll lot.
    const moved = await admin()({
      method: 'PATCH',
      url: '/api/missions/move-to-batch',
      payload: { missionIds: [...heartsine.missionIds, ...unknownModel.missionIds], batchId: zoll.batchId },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const deadline = dayFromToday(30);
    await ctx.db.update(missionBatches).set({ deadline: new Date(`${deadline}T18:00:00Z`) }).where(eq(missionBatches.id, zoll.batchId));
    const soon = addDays(deadline, 60);
    for (const id of [...zoll.missionIds, ...heartsine.missionIds, ...unknownModel.missionIds]) {
      await setDevice(id, { batteryExpiry: soon, adultPadsExpiry: soon, pediatricPadsPresent: false });
    }
    let parts = await lotParts(zoll.batchId);
    expect(parts.devices).toHaveLength(3);
    expect(parts.devices.every((d) => d.referenceSource === 'deadline' && d.referenceDate === deadline)).toBe(true);
    expect(parts.firstVisitDate).toBeNull();
    expect(parts.items.map((i) => [i.itemLabel, i.quantity])).toEqual([
      ['Électrodes Zoll CPR-D-padz (AED Plus)', 1],
      // HeartSine's Pad-Pak is battery and electrodes in one: one per device.
      ['Pad-Pak adulte HeartSine samaritan PAD (batterie + électrodes)', 1],
      ['Piles lithium CR123A x10 pour Zoll AED Plus', 1],
    ]);
    const nihon = parts.devices.find((d) => d.serialNumber === 'MM-2003')!;
    expect(nihon.toCheck).toEqual([
      { kind: 'battery', reason: 'Aucune pièce de référence pour ce modèle' },
      { kind: 'adult_pads', reason: 'Aucune pièce de référence pour ce modèle' },
    ]);

    // A margin of 30 days: expiries at deadline + 60 are no longer needed.
    const saved = await admin()({ method: 'PUT', url: '/api/admin/parts-settings', payload: { expiryMarginDays: 30, shipDaysBeforeVisit: 10 } });
    expect(saved.statusCode).toBe(200);
    expect(partsSettingsSchema.parse(saved.json())).toEqual({ expiryMarginDays: 30, shipDaysBeforeVisit: 10 });
    parts = await lotParts(zoll.batchId);
    expect(parts.items).toEqual([]);
    expect(parts.marginDays).toBe(30);
    // Back to the defaults for the other tests.
    await admin()({ method: 'PUT', url: '/api/admin/parts-settings', payload: { expiryMarginDays: 90, shipDaysBeforeVisit: 7 } });
  });

  it('follows a device moving to another lot, and its dates changing', async () => {
    const a = await makeLotWithDevices(ctx.db, { technicianId, serials: ['MV-3001', 'MV-3002'] });
    const b = await makeLotWithDevices(ctx.db, { technicianId, serials: ['MV-3003'] });
    const soon = dayFromToday(10);
    for (const id of [...a.missionIds, ...b.missionIds]) await setDevice(id, { batteryExpiry: soon, adultPadsExpiry: dayFromToday(900), pediatricPadsPresent: false });
    expect((await lotParts(a.batchId)).items).toEqual([expect.objectContaining({ itemLabel: 'Piles lithium CR123A x10 pour Zoll AED Plus', quantity: 2 })]);
    expect((await lotParts(b.batchId)).items[0]?.quantity).toBe(1);

    const moved = await admin()({ method: 'PATCH', url: '/api/missions/move-to-batch', payload: { missionIds: [a.missionIds[1]], batchId: b.batchId } });
    expect(moved.statusCode, moved.body).toBe(200);
    const afterA = await lotParts(a.batchId);
    const afterB = await lotParts(b.batchId);
    expect(afterA.items[0]?.quantity).toBe(1);
    expect(afterA.devices.map((d) => d.serialNumber)).toEqual(['MV-3001']);
    expect(afterB.items[0]?.quantity).toBe(2);
    expect(afterB.items[0]?.devices.map((d) => d.serialNumber).sort()).toEqual(['MV-3002', 'MV-3003']);

    // A new battery recorded on the device: it needs nothing any more.
    await setDevice(a.missionIds[0]!, { batteryExpiry: dayFromToday(1500) });
    expect((await lotParts(a.batchId)).items).toEqual([]);
  });

  it('answers 404 for an unknown lot and keeps the routes to the admin', async () => {
    const unknown = await admin()({ method: 'GET', url: `/api/admin/mission-batches/${crypto.randomUUID()}/parts` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Lot de mission introuvable');
    const lot = await makeLotWithDevices(ctx.db, { technicianId, serials: ['AC-4001'] });
    const denied = await as(ctx.app, techCookie)({ method: 'GET', url: `/api/admin/mission-batches/${lot.batchId}/parts` });
    expect(denied.statusCode).toBe(403);
  });
});

describe('Expéditions’ figures kept per lot (decision 060)', () => {
  async function lineOf(batchId: string) {
    const items = await proposalsOf(batchId);
    expect(items.length).toBeLessThanOrEqual(1);
    return items[0] ?? null;
  }

  /** The lot's line as the list reads it, checked against the lot's own page (computed from the registry every time). */
  async function checkedLine(batchId: string) {
    const line = await lineOf(batchId);
    const page = partsSummaryOf(await lotParts(batchId));
    if (page.itemCount === 0 && page.toCheckCount === 0 && !page.shipment) expect(line).toBeNull();
    else expect(line).toEqual(page);
    return line;
  }

  const kept = async (batchId: string) => (await ctx.db.select().from(lotPartsKept).where(eq(lotPartsKept.batchId, batchId)))[0]!;

  it('follows each write its figures are computed from, and the deadline and margin they were computed with', async () => {
    const lot = await makeLotWithDevices(ctx.db, { technicianId, serials: ['KP-8001', 'KP-8002'] });
    const [first, second] = lot.missionIds as [string, string];
    for (const id of lot.missionIds) await setDevice(id, { batteryExpiry: dayFromToday(900), adultPadsExpiry: dayFromToday(900), pediatricPadsPresent: false });
    expect(await checkedLine(lot.batchId)).toBeNull();
    // Read once, the figures are kept at the lot's version.
    const read = await kept(lot.batchId);
    expect(read).toMatchObject({ keptVersion: read.version, itemCount: 0, toCheckCount: 0, firstVisitDay: null });

    // A battery expiring within the margin of today (no visit planned, no deadline): a device's write.
    await setDevice(first, { batteryExpiry: dayFromToday(20) });
    expect(await checkedLine(lot.batchId)).toMatchObject({ itemCount: 1, toCheckCount: 0, firstVisitDate: null });
    // Beyond it, then needed again against a deadline 200 days ahead: the lot's deadline is read live.
    await setDevice(first, { batteryExpiry: dayFromToday(150) });
    expect(await checkedLine(lot.batchId)).toBeNull();
    await ctx.db.update(missionBatches).set({ deadline: new Date(`${dayFromToday(200)}T12:00:00Z`) }).where(eq(missionBatches.id, lot.batchId));
    expect(await checkedLine(lot.batchId)).toMatchObject({ itemCount: 1, firstVisitDate: null });

    // A visit planned (the recruit's progress), then done.
    await planVisit(second, dayFromToday(12));
    expect(await checkedLine(lot.batchId)).toMatchObject({ itemCount: 1, firstVisitDate: dayFromToday(12), shipBy: dayFromToday(5) });
    const done = and(eq(technicianMissionData.missionId, second), eq(technicianMissionData.technicianId, technicianId));
    await ctx.db.update(technicianMissionData).set({ isCompleted: true }).where(done);
    expect(await checkedLine(lot.batchId)).toMatchObject({ itemCount: 1, firstVisitDate: null });
    // A comment changes nothing the figures read: the version stays.
    const version = (await kept(lot.batchId)).version;
    await ctx.db.update(technicianMissionData).set({ technicianComments: 'Badge à demander' }).where(done);
    expect((await kept(lot.batchId)).version).toBe(version);

    // An unknown date, and a battery needed before the deadline + 90 days but not before the deadline + 10.
    await setDevice(first, { adultPadsExpiry: null, batteryExpiry: dayFromToday(250) });
    expect(await checkedLine(lot.batchId)).toMatchObject({ itemCount: 1, toCheckCount: 1 });
    const margin = await admin()({ method: 'PUT', url: '/api/admin/parts-settings', payload: { expiryMarginDays: 10, shipDaysBeforeVisit: 7 } });
    expect(margin.statusCode).toBe(200);
    expect(await checkedLine(lot.batchId)).toMatchObject({ itemCount: 0, toCheckCount: 1 });
    await admin()({ method: 'PUT', url: '/api/admin/parts-settings', payload: { expiryMarginDays: 90, shipDaysBeforeVisit: 7 } });

    // The device leaves the lot: the visit done is all that is left.
    const other = await makeLotWithDevices(ctx.db, { technicianId, serials: ['KP-8003'] });
    const moved = await admin()({ method: 'PATCH', url: '/api/missions/move-to-batch', payload: { missionIds: [first], batchId: other.batchId } });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await checkedLine(lot.batchId)).toBeNull();
    // There, without a deadline, the battery (250 days away) is beyond today + 90; its electrodes' date is still unknown,
    // like both dates of the lot's own device.
    expect(await checkedLine(other.batchId)).toMatchObject({ itemCount: 0, toCheckCount: 3 });
  });

  it('answers a write made after a read the read cache kept (the triggers’ writes are followed)', async () => {
    const lot = await makeLotWithDevices(ctx.db, { technicianId, serials: ['KP-8201'] });
    await setDevice(lot.missionIds[0]!, { batteryExpiry: dayFromToday(900), adultPadsExpiry: dayFromToday(900), pediatricPadsPresent: false });
    // The first read computes the lot and keeps it; the second reads the kept figures, an answer the read cache keeps.
    expect(await lineOf(lot.batchId)).toBeNull();
    expect(await lineOf(lot.batchId)).toBeNull();
    await setDevice(lot.missionIds[0]!, { batteryExpiry: dayFromToday(10) });
    expect(await lineOf(lot.batchId)).toMatchObject({ itemCount: 1, firstVisitDate: null });
    expect(await lineOf(lot.batchId)).toMatchObject({ itemCount: 1, firstVisitDate: null });
    await planVisit(lot.missionIds[0]!, dayFromToday(15));
    expect(await lineOf(lot.batchId)).toMatchObject({ itemCount: 1, firstVisitDate: dayFromToday(15) });
  });

  it('keeps nothing computed before a write on the lot: the next read computes it again', async () => {
    const lot = await makeLotWithDevices(ctx.db, { technicianId, serials: ['KP-8101'] });
    await setDevice(lot.missionIds[0]!, { batteryExpiry: dayFromToday(900), adultPadsExpiry: dayFromToday(900), pediatricPadsPresent: false });
    await repo.ensureKeptParts(ctx.db, [lot.batchId]);
    const [before] = await repo.readKeptParts(ctx.db, [lot.batchId]);
    // A write commits between the read of the version and the keeping of what was computed before it.
    await setDevice(lot.missionIds[0]!, { batteryExpiry: dayFromToday(10) });
    await repo.keepParts(ctx.db, [{ batchId: lot.batchId, version: before!.version, key: 'avant', itemCount: 0, toCheckCount: 0, firstVisitDay: null }]);
    const after = await kept(lot.batchId);
    expect(after.version).toBeGreaterThan(before!.version);
    expect(after.keptVersion).toBeNull();
    expect(await checkedLine(lot.batchId)).toMatchObject({ itemCount: 1 });
    expect(await kept(lot.batchId)).toMatchObject({ keptVersion: after.version, itemCount: 1 });
  });
});

describe('« Créer le colis »', () => {
  it('creates the draft parcel with the device of each part once, however many times it is asked, then ships it', async () => {
    const lot = await makeLotWithDevices(ctx.db, { technicianId, serials: ['CR-5001', 'CR-5002'] });
    const visit = dayFromToday(3);
    for (const id of lot.missionIds) {
      await planVisit(id, visit);
      await setDevice(id, { batteryExpiry: dayFromToday(30), adultPadsExpiry: dayFromToday(40), pediatricPadsPresent: false });
    }
    const before = await lotParts(lot.batchId);
    // The first visit is in 3 days and the parcel should have left 7 days before: late.
    expect(before.late).toBe(true);
    expect(await proposalsOf(lot.batchId)).toEqual([expect.objectContaining({ itemCount: 4, late: true, shipment: null })]);

    const shipmentsBefore = await countRows(ctx.db, 'shipments');
    const url = `/api/admin/mission-batches/${lot.batchId}/parts/shipment`;
    const [first, second] = await Promise.all([admin()({ method: 'POST', url }), admin()({ method: 'POST', url })]);
    const statuses = [first.statusCode, second.statusCode].sort();
    expect(statuses).toEqual([200, 201]);
    const a = createPartsShipmentResponseSchema.parse(first.json());
    const b = createPartsShipmentResponseSchema.parse(second.json());
    expect(a.shipment.id).toBe(b.shipment.id);
    const third = createPartsShipmentResponseSchema.parse((await admin()({ method: 'POST', url })).json());
    expect(third).toMatchObject({ created: false, shipment: { id: a.shipment.id } });
    expect(await countRows(ctx.db, 'shipments')).toBe(shipmentsBefore + 1);
    expect(a.shipment).toMatchObject({
      batchId: lot.batchId,
      technicianId,
      status: 'draft',
      destination: 'Relais Tabac du Marché, 75011 Paris',
      content: '2 × Électrodes Zoll CPR-D-padz (AED Plus)\n2 × Piles lithium CR123A x10 pour Zoll AED Plus',
    });
    const rows = await ctx.db.select().from(shipmentParts).where(eq(shipmentParts.shipmentId, a.shipment.id));
    expect(rows.map((r) => `${r.missionId}|${r.kind}`).sort()).toEqual(lot.missionIds.flatMap((m) => [`${m}|adult_pads`, `${m}|battery`]).sort());

    let parts = await lotParts(lot.batchId);
    expect(parts.shipment).toMatchObject({ id: a.shipment.id, status: 'draft' });
    expect(parts.late).toBe(true);

    // The technician sees what comes for each device; another technician sees nothing of it.
    const work = await as(ctx.app, techCookie)({ method: 'GET', url: `/api/applications/${lot.applicationId}/parts` });
    expect(work.statusCode).toBe(200);
    const coming = workPartsSchema.parse(work.json());
    expect(coming).toHaveLength(2);
    expect(coming[0]!.parts.map((p) => [p.kind, p.shipmentStatus])).toEqual([
      ['adult_pads', 'draft'],
      ['battery', 'draft'],
    ]);
    expect((await as(ctx.app, otherCookie)({ method: 'GET', url: `/api/applications/${lot.applicationId}/parts` })).statusCode).toBe(404);
    // The visit report starts « consommables remplacés » from them.
    const report = await as(ctx.app, techCookie)({ method: 'GET', url: `/api/missions/${lot.missionIds[0]}/visit-report` });
    expect(report.statusCode).toBe(200);
    expect(visitReportContextSchema.parse(report.json()).partsComing).toEqual([
      'Électrodes Zoll CPR-D-padz (AED Plus)',
      'Piles lithium CR123A x10 pour Zoll AED Plus',
    ]);

    const shipped = await admin()({ method: 'PATCH', url: `/api/shipments/${a.shipment.id}/ship` });
    expect(shipped.statusCode).toBe(200);
    parts = await lotParts(lot.batchId);
    expect(parts).toMatchObject({ shipped: true, late: false, shipment: { status: 'in_transit' } });
    // Expéditions' line says the same, its shipping time to the millisecond as the lot's page (a time PostgreSQL keeps
    // to the microsecond, which the list writes in SQL and the lot's page through a Date).
    await ctx.db.update(shipments).set({ shippedDate: sql`'2026-12-01 10:11:12.345678+00'::timestamptz` }).where(eq(shipments.id, a.shipment.id));
    parts = await lotParts(lot.batchId);
    expect(parts.shipment?.shippedDate).toBe('2026-12-01T10:11:12.345Z');
    expect(await proposalsOf(lot.batchId)).toEqual([partsSummaryOf(parts)]);
  });

  it('refuses a lot with nothing to send or without a recruit, and starts again after a cancellation', async () => {
    const empty = await makeLotWithDevices(ctx.db, { technicianId, serials: ['NS-6001'] });
    await setDevice(empty.missionIds[0]!, { batteryExpiry: dayFromToday(900), adultPadsExpiry: dayFromToday(900), pediatricPadsPresent: false });
    const shipmentsBefore = await countRows(ctx.db, 'shipments');
    const nothing = await admin()({ method: 'POST', url: `/api/admin/mission-batches/${empty.batchId}/parts/shipment` });
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json().message).toBe('Aucune pièce à envoyer pour ce lot');
    const unrecruited = await makeLotWithDevices(ctx.db, { technicianId, serials: ['NS-6002'], recruit: false });
    await setDevice(unrecruited.missionIds[0]!, { batteryExpiry: dayFromToday(5) });
    const noRecruit = await admin()({ method: 'POST', url: `/api/admin/mission-batches/${unrecruited.batchId}/parts/shipment` });
    expect(noRecruit.statusCode).toBe(409);
    expect(await countRows(ctx.db, 'shipments')).toBe(shipmentsBefore);

    const lot = await makeLotWithDevices(ctx.db, { technicianId, serials: ['NS-6003'] });
    await setDevice(lot.missionIds[0]!, { batteryExpiry: dayFromToday(5), adultPadsExpiry: dayFromToday(900), pediatricPadsPresent: false });
    const url = `/api/admin/mission-batches/${lot.batchId}/parts/shipment`;
    const first = createPartsShipmentResponseSchema.parse((await admin()({ method: 'POST', url })).json());
    expect((await admin()({ method: 'PATCH', url: `/api/shipments/${first.shipment.id}/cancel` })).statusCode).toBe(200);
    expect((await lotParts(lot.batchId)).shipment).toBeNull();
    const again = await admin()({ method: 'POST', url });
    expect(again.statusCode).toBe(201);
    const second = createPartsShipmentResponseSchema.parse(again.json());
    expect(second.shipment.id).not.toBe(first.shipment.id);
    const links = await ctx.db.select().from(lotPartShipments).where(eq(lotPartShipments.batchId, lot.batchId));
    expect(links.map((l) => l.shipmentId)).toEqual([second.shipment.id]);
    // The cancelled parcel's parts are not coming.
    const coming = workPartsSchema.parse((await as(ctx.app, techCookie)({ method: 'GET', url: `/api/applications/${lot.applicationId}/parts` })).json());
    expect(coming.flatMap((c) => c.parts.map((p) => p.shipmentId))).toEqual([second.shipment.id]);
  });
});

describe('after the visits', () => {
  it('lists the parts sent but not replaced in the complete report', async () => {
    const lot = await makeLotWithDevices(ctx.db, { technicianId, serials: ['UN-7001', 'UN-7002'] });
    for (const id of lot.missionIds) await setDevice(id, { batteryExpiry: dayFromToday(20), adultPadsExpiry: dayFromToday(20), pediatricPadsPresent: false });
    const created = createPartsShipmentResponseSchema.parse(
      (await admin()({ method: 'POST', url: `/api/admin/mission-batches/${lot.batchId}/parts/shipment` })).json(),
    );
    const [visited, notYet] = lot.missionIds as [string, string];
    // A complete report on the first device replaced the battery only; the second is not visited yet.
    await ctx.db.insert(visitReports).values({
      id: crypto.randomUUID(),
      missionId: visited,
      technicianId,
      version: 1,
      visitedAt: new Date(),
      outcome: 'En fonctionnement',
      consumablesReplaced: ['Piles lithium CR123A x10 pour Zoll AED Plus'],
    });
    const response = await admin()({ method: 'GET', url: `/api/admin/mission-batches/${lot.batchId}/parts/unused` });
    expect(response.statusCode).toBe(200);
    const unused = z.array(unusedPartSchema).parse(response.json());
    expect(unused).toEqual([
      expect.objectContaining({
        shipmentId: created.shipment.id,
        missionId: visited,
        serialNumber: 'UN-7001',
        kind: 'adult_pads',
        itemLabel: 'Électrodes Zoll CPR-D-padz (AED Plus)',
      }),
    ]);
    expect(unused.some((u) => u.missionId === notYet)).toBe(false);
    const cancelled = await ctx.db.select({ status: shipments.status }).from(shipments).where(eq(shipments.id, created.shipment.id));
    expect(cancelled[0]?.status).toBe('draft');
  });

  it('lists every lot’s proposal as the lot’s own page computes it (the list reads all lots at once)', async () => {
    const summaries = await allProposals();
    expect(summaries.length).toBeGreaterThan(1);
    for (const summary of summaries) {
      expect(summary).toEqual(partsSummaryOf(await lotParts(summary.batchId)));
    }
    // Page after page, one lot or three at a time: the same lots in the same order, each once.
    expect(await allProposals(1)).toEqual(summaries);
    expect(await allProposals(3)).toEqual(summaries);
    expect(new Set(summaries.map((s) => s.batchId)).size).toBe(summaries.length);
    // A lot needing nothing is not listed, and a lot without a recruit neither.
    const nothing = await makeLotWithDevices(ctx.db, { technicianId, serials: ['UN-7101'] });
    await setDevice(nothing.missionIds[0]!, { batteryExpiry: dayFromToday(900), adultPadsExpiry: dayFromToday(900), pediatricPadsPresent: false });
    const unrecruited = await makeLotWithDevices(ctx.db, { technicianId, serials: ['UN-7102'], recruit: false });
    await setDevice(unrecruited.missionIds[0]!, { batteryExpiry: dayFromToday(5) });
    expect(await proposalsOf(nothing.batchId, unrecruited.batchId)).toEqual([]);
    expect((await allProposals(2)).map((s) => s.batchId)).toEqual(summaries.map((s) => s.batchId));
  });

  it('refuses a page it cannot read, in French, and answers the admin only', async () => {
    for (const [query, message] of [
      ['after=abc', 'Page de propositions invalide : rechargez la liste'],
      [`after=${encodeURIComponent(JSON.stringify(['Lot', 'pas-un-id']))}`, 'Page de propositions invalide : rechargez la liste'],
      ['batchIds=pas-un-id', 'Identifiant de lot invalide'],
    ] as const) {
      const response = await admin()({ method: 'GET', url: `/api/admin/parts/proposals?${query}` });
      expect(response.statusCode, query).toBe(400);
      expect(response.body, query).toContain(message);
    }
    expect((await admin()({ method: 'GET', url: '/api/admin/parts/proposals?limit=0' })).statusCode).toBe(400);
    expect((await admin()({ method: 'GET', url: '/api/admin/parts/proposals?limit=51' })).statusCode).toBe(400);
    expect((await as(ctx.app, techCookie)({ method: 'GET', url: '/api/admin/parts/proposals' })).statusCode).toBe(403);
  });
});

describe('consumables per model and Réglages', () => {
  it('lists the seeded reference, adds, edits and deletes a part; refuses duplicates and unknown items in French', async () => {
    const list = z.array(consumableSchema).parse((await admin()({ method: 'GET', url: '/api/admin/consumables' })).json());
    expect(list.filter((c) => c.manufacturer === 'Zoll' && c.model === 'AED Plus').map((c) => [c.kind, c.itemLabel])).toEqual([
      ['adult_pads', 'Électrodes Zoll CPR-D-padz (AED Plus)'],
      ['battery', 'Piles lithium CR123A x10 pour Zoll AED Plus'],
      ['pediatric_pads', 'Électrodes pédiatriques Zoll Pedi-padz II'],
    ]);
    const created = await admin()({
      method: 'POST',
      url: '/api/admin/consumables',
      payload: { manufacturer: ' Philips ', model: 'HeartStart  FR3', kind: 'adult_pads', itemLabel: 'Électrodes adulte Philips SMART Pads II (HeartStart FRx)' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const part = consumableSchema.parse(created.json());
    expect(part).toMatchObject({ manufacturer: 'Philips', model: 'HeartStart FR3' });
    const duplicate = await admin()({
      method: 'POST',
      url: '/api/admin/consumables',
      payload: { manufacturer: 'philips', model: 'heartstart fr3', kind: 'adult_pads', itemLabel: 'Batterie Philips HeartStart FR3' },
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().message).toBe('Ce modèle a déjà une pièce pour ce consommable : modifiez-la');
    const badItem = await admin()({
      method: 'PUT',
      url: `/api/admin/consumables/${part.id}`,
      payload: { manufacturer: 'Philips', model: 'HeartStart FR3', kind: 'adult_pads', itemLabel: 'Pièce inventée' },
    });
    expect(badItem.statusCode).toBe(400);
    expect(badItem.body).toContain('Choisissez la pièce dans la liste');
    const edited = await admin()({
      method: 'PUT',
      url: `/api/admin/consumables/${part.id}`,
      payload: { manufacturer: 'Philips', model: 'HeartStart FR3', kind: 'adult_pads', itemLabel: 'Clé enfant/nourrisson Philips HeartStart FRx' },
    });
    expect(consumableSchema.parse(edited.json()).itemLabel).toBe('Clé enfant/nourrisson Philips HeartStart FRx');
    const before = await countRows(ctx.db, 'model_consumables');
    expect((await admin()({ method: 'DELETE', url: `/api/admin/consumables/${part.id}` })).statusCode).toBe(204);
    expect(await countRows(ctx.db, 'model_consumables')).toBe(before - 1);
    expect((await admin()({ method: 'DELETE', url: `/api/admin/consumables/${part.id}` })).statusCode).toBe(404);
    // Each change is audited with what it changed; the refused ones (duplicate, unknown item, already deleted) are not.
    const entries = await ctx.db
      .select({ action: auditLog.action, actor: auditLog.actorUserId, before: auditLog.before, after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'consumable'), eq(auditLog.entityId, part.id)))
      .orderBy(asc(auditLog.createdAt), asc(auditLog.id));
    expect(entries.map((e) => e.action)).toEqual(['consumable.create', 'consumable.update', 'consumable.delete']);
    expect(new Set(entries.map((e) => e.actor)).size).toBe(1);
    expect(entries[0]!.actor).not.toBeNull();
    expect(JSON.parse(entries[1]!.before!)).toMatchObject({ itemLabel: 'Électrodes adulte Philips SMART Pads II (HeartStart FRx)' });
    expect(JSON.parse(entries[1]!.after!)).toMatchObject({ itemLabel: 'Clé enfant/nourrisson Philips HeartStart FRx' });
    expect(JSON.parse(entries[2]!.before!)).toMatchObject({ manufacturer: 'Philips', model: 'HeartStart FR3' });
    expect(entries[2]!.after).toBeNull();
  });

  it('reads the defaults and refuses out-of-range settings without changing them', async () => {
    const read = partsSettingsSchema.parse((await admin()({ method: 'GET', url: '/api/admin/parts-settings' })).json());
    expect(read).toEqual({ expiryMarginDays: 90, shipDaysBeforeVisit: 7 });
    const bad = await admin()({ method: 'PUT', url: '/api/admin/parts-settings', payload: { expiryMarginDays: -1, shipDaysBeforeVisit: 'sept' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain("Marge d'expiration : 0 jour au minimum");
    expect(partsSettingsSchema.parse((await admin()({ method: 'GET', url: '/api/admin/parts-settings' })).json())).toEqual(read);
  });

  it('audits a saved Réglages with its values before and after, and nothing for a refused one', async () => {
    const audited = () =>
      ctx.db
        .select({ before: auditLog.before, after: auditLog.after })
        .from(auditLog)
        .where(eq(auditLog.action, 'parts-settings.update'))
        .orderBy(asc(auditLog.createdAt), asc(auditLog.id));
    const count = (await audited()).length;
    const read = partsSettingsSchema.parse((await admin()({ method: 'GET', url: '/api/admin/parts-settings' })).json());
    const saved = await admin()({ method: 'PUT', url: '/api/admin/parts-settings', payload: { expiryMarginDays: 45, shipDaysBeforeVisit: 5 } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await admin()({ method: 'PUT', url: '/api/admin/parts-settings', payload: { expiryMarginDays: 'trois' } })).statusCode).toBe(400);
    const entries = await audited();
    expect(entries).toHaveLength(count + 1);
    expect(JSON.parse(entries.at(-1)!.before!)).toEqual(read);
    expect(JSON.parse(entries.at(-1)!.after!)).toEqual({ expiryMarginDays: 45, shipDaysBeforeVisit: 5 });
    await admin()({ method: 'PUT', url: '/api/admin/parts-settings', payload: read });
  });
});

function addDays(day: string, days: number): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
