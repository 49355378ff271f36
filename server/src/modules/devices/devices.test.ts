import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq, sql } from 'drizzle-orm';
import { normalizeSerial } from '@maillon/common/device-rules';
import { deviceDetailSchema, deviceListItemSchema, deviceSchema } from '@maillon/common/schemas/devices';
import { devices, missions } from '../../db/schema';
import { migrationsFolder } from '../../db/client';
import { attentionCondition } from './devices.repository';
import { attentionLimitDay } from './devices.service';
import { as, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';
import { readPdf } from '../../../test/pdf';
import { dayFromToday, makeLotWithDevices } from '../../../test/device-fixtures';

let ctx: TestContext;
let cookieAdmin: string;
let cookieA: string;
let cookieB: string;
let techA: Awaited<ReturnType<typeof createTechnician>>;
const INGEST_KEY = 'cle-d-ingestion-de-test-123456';

beforeAll(async () => {
  ctx = await createTestContext({ INGEST_API_KEY: INGEST_KEY });
  const admin = await createAdmin(ctx.db);
  techA = await createTechnician(ctx.db, { firstName: 'Alice', lastName: 'Terrain' });
  const techB = await createTechnician(ctx.db, { firstName: 'Bruno', lastName: 'Autre' });
  cookieAdmin = await login(ctx.app, admin.email);
  cookieA = await login(ctx.app, techA.technician.email);
  cookieB = await login(ctx.app, techB.technician.email);
}, 60_000);
afterAll(async () => {
  await ctx?.close();
});

const admin = () => as(ctx.app, cookieAdmin);

async function deviceByKey(key: string) {
  const [row] = await ctx.db.select({ id: devices.id }).from(devices).where(eq(devices.serialKey, key));
  return row?.id;
}

describe('device registry: one device per normalised serial number', () => {
  it('links a serial met in two lots (spelled differently) to one device with two visits', async () => {
    const first = await makeLotWithDevices(ctx.db, { technicianId: techA.technician.id, serials: ['DEF-2024 0001'] });
    const other = await createTechnician(ctx.db);
    const second = await makeLotWithDevices(ctx.db, { technicianId: other.technician.id, serials: ['def20240001'] });
    const [m1] = await ctx.db.select({ deviceId: missions.deviceId }).from(missions).where(eq(missions.id, first.missionIds[0]!));
    const [m2] = await ctx.db.select({ deviceId: missions.deviceId }).from(missions).where(eq(missions.id, second.missionIds[0]!));
    expect(m1!.deviceId).toBeTruthy();
    expect(m2!.deviceId).toBe(m1!.deviceId);

    const list = await admin()({ method: 'GET', url: '/api/devices?search=def2024' });
    expect(list.statusCode).toBe(200);
    const items = deviceListItemSchema.array().parse(list.json());
    expect(items).toHaveLength(1);
    expect(items[0]!.serialKey).toBe('DEF20240001');
    expect(items[0]!.serialNumber).toBe('DEF-2024 0001');
    expect(items[0]!.visitCount).toBe(2);

    const detail = deviceDetailSchema.parse((await admin()({ method: 'GET', url: `/api/devices/${m1!.deviceId}` })).json());
    expect(detail.visits.map((v) => v.batchTitle).sort()).toEqual([first.title, second.title].sort());
    expect(detail.manufacturer).toBe('Zoll');
    expect(detail.model).toBe('AED Plus');
    expect(detail.address).toBe('3 place de la Mairie');
    expect(detail.city).toBe('Paris');
  });

  it('creates or links devices on every admin path: Valider, POST /api/missions, Modifier, ingestion, CSV', async () => {
    const manual = await admin()({
      method: 'POST',
      url: '/api/missions/manual',
      payload: { serialNumber: 'VAL-77001', clientName: 'Pharmacie du Marché', defibrillatorModel: 'Philips - HeartStart HS1', visitType: 'Maintenance', department: '75', address: '12 rue du Marché, 75011 Paris', completionLink: 'https://c.test/x', telSite: '01 42 00 00 01', postalCode: '75011', city: 'Paris' },
    });
    expect(manual.statusCode, manual.body).toBe(201);
    const deviceId = await deviceByKey('VAL77001');
    expect(deviceId).toBeTruthy();
    const validated = await admin()({ method: 'POST', url: `/api/jobs/${manual.json().id}/validate` });
    expect(validated.statusCode).toBe(201);
    const [linked] = await ctx.db.select({ deviceId: missions.deviceId }).from(missions).where(eq(missions.id, validated.json().id));
    expect(linked!.deviceId).toBe(deviceId);

    const created = await admin()({
      method: 'POST',
      url: '/api/missions',
      payload: { title: 'Maintenance - Stade', description: 'd', location: '60 route du Stade, 69003 Lyon', department: '69', budget: 150, deadline: dayFromToday(20), serialNumber: 'val 77001' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const [byHand] = await ctx.db.select({ deviceId: missions.deviceId }).from(missions).where(eq(missions.id, created.json().id));
    expect(byHand!.deviceId).toBe(deviceId);

    const edited = await admin()({
      method: 'PUT',
      url: `/api/missions/${created.json().id}`,
      payload: { title: 'Maintenance - Stade', description: 'd', address: '60 route du Stade, 69003 Lyon', department: '69', serialNumber: 'NEW-88002', clientName: 'Stade', defibrillatorModel: 'Zoll - AED 3', visitType: 'Maintenance', completionLink: 'https://c.test/y' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const [relinked] = await ctx.db.select({ deviceId: missions.deviceId }).from(missions).where(eq(missions.id, created.json().id));
    expect(relinked!.deviceId).toBe(await deviceByKey('NEW88002'));

    const ingested = await ctx.app.inject({
      method: 'POST',
      url: '/api/jobs/ingest',
      headers: { authorization: `Bearer ${INGEST_KEY}` },
      payload: [{ serialNumber: 'ING-55003', clientName: 'Gare', defibrillatorModel: 'Schiller - FRED PA-1', visitType: 'Maintenance', department: '33', address: '2 place de la Gare, 33000 Bordeaux', completionLink: 'https://c.test/z' }],
    });
    expect(ingested.statusCode, ingested.body).toBe(200);
    expect(await deviceByKey('ING55003')).toBeTruthy();

    const csv = 'serialNumber;clientName;defibrillatorModel;visitType;department;address;completionLink\nCSV-44004;Collège;Zoll - AED Plus;Maintenance;44;8 rue Victor Hugo, 44000 Nantes;https://c.test/w\n';
    const imported = await admin()({ method: 'POST', url: '/api/jobs/import-csv?mode=commit', headers: { 'content-type': 'text/csv' }, payload: csv });
    expect(imported.statusCode, imported.body).toBe(200);
    expect(await deviceByKey('CSV44004')).toBeTruthy();
  });

  it('adds a device by hand, once per serial number', async () => {
    const created = await admin()({ method: 'POST', url: '/api/devices', payload: { serialNumber: 'MAN-12345', manufacturer: 'Zoll', model: 'AED 3', functionalState: 'En fonctionnement', lastMaintenanceOn: '2026-01-31' } });
    expect(created.statusCode, created.body).toBe(201);
    const device = deviceSchema.parse(created.json());
    expect(device.nextMaintenanceDue).toBe('2027-01-31');
    const again = await admin()({ method: 'POST', url: '/api/devices', payload: { serialNumber: 'man 12345' } });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/déjà enregistré/);
    const placeholder = await admin()({ method: 'POST', url: '/api/devices', payload: { serialNumber: 'N/A' } });
    expect(placeholder.statusCode).toBe(400);
    expect(placeholder.json().message).toMatch(/Numéro de série invalide/);
  });

  it('keeps the SQL of the data migration and normalizeSerial in step', async () => {
    const samples = ['sn-75 1001', 'ＳＮ７５１００１', ' x09e.409/930 ', 'éa-12_3', 'N/A'];
    for (const sample of samples) {
      const result = await ctx.db.execute<{ key: string }>(sql`select upper(regexp_replace(normalize(${sample}::text, NFKC), '[^A-Za-z0-9]', '', 'g')) as key`);
      expect(result.rows[0]!.key, sample).toBe(normalizeSerial(sample));
    }
  });

  it('migrates existing missions into devices (the data part of migration 0012)', async () => {
    const inserted = await ctx.db
      .insert(missions)
      .values([
        { title: 'Ancienne 1', serialNumber: 'OLD-9 001', defibrillatorModel: 'Philips - HeartStart FRx', clientName: 'Ancien site', location: '5 rue des Écoles, 75005 Paris', postalCode: '75005', city: 'Paris', latitude: 48.85, longitude: 2.35 },
        { title: 'Ancienne 2', serialNumber: 'old9001', clientName: 'Ancien site' },
        { title: 'Sans série', serialNumber: 'inconnu' },
      ])
      .returning({ id: missions.id });
    const text = fs.readFileSync(path.join(migrationsFolder(), '0012_devices-data.sql'), 'utf8');
    for (const statement of text.split('--> statement-breakpoint')) if (statement.trim()) await ctx.db.execute(sql.raw(statement));
    const rows = await ctx.db.select({ id: missions.id, deviceId: missions.deviceId }).from(missions).where(sql`${missions.id} in ${inserted.map((m) => m.id)}`);
    const byId = new Map(rows.map((r) => [r.id, r.deviceId]));
    const deviceId = byId.get(inserted[0]!.id);
    expect(deviceId).toBeTruthy();
    expect(byId.get(inserted[1]!.id)).toBe(deviceId);
    expect(byId.get(inserted[2]!.id)).toBeNull();
    const [device] = await ctx.db.select().from(devices).where(eq(devices.id, deviceId!));
    expect(device).toMatchObject({ serialKey: 'OLD9001', manufacturer: 'Philips', model: 'HeartStart FRx', address: '5 rue des Écoles', city: 'Paris' });
  });
});

describe('registry edits', () => {
  let deviceId: string;
  beforeAll(async () => {
    const created = await admin()({ method: 'POST', url: '/api/devices', payload: { serialNumber: 'EDIT-0001', siteName: 'Piscine' } });
    deviceId = created.json().id;
  });

  it('refuses a bad SIREN, bad opening hours or a bad phone with French messages, changing nothing', async () => {
    const before = (await admin()({ method: 'GET', url: `/api/devices/${deviceId}` })).json();
    for (const [payload, message] of [
      [{ operatorSiren: '123456789' }, /SIREN invalide/],
      [{ openingHours: 'Lu-Ve 8h-18h' }, /Jour « Lu » inconnu/],
      [{ openingHours: 'Mo-Fr 18:00-08:00' }, /l’heure de fin doit suivre/],
      [{ sitePhone: '12 34' }, /Numéro de téléphone invalide/],
      [{ functionalState: 'Cassé' }, /État de fonctionnement invalide/],
      [{ batteryExpiry: '2026-02-30' }, /date invalide/],
      [{}, /Aucune donnée/],
    ] as const) {
      const response = await admin()({ method: 'PATCH', url: `/api/devices/${deviceId}`, payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message).toMatch(message);
    }
    expect((await admin()({ method: 'GET', url: `/api/devices/${deviceId}` })).json()).toEqual(before);
  });

  it('saves valid fields, normalises the hours and recomputes the next maintenance', async () => {
    const response = await admin()({
      method: 'PATCH',
      url: `/api/devices/${deviceId}`,
      payload: { operatorName: 'Commune de Test', operatorSiren: '213 501 794', openingHours: ' Mo-Fr  08:00-18:00 ;Sa 09:00-12:00', lastMaintenanceOn: '2026-03-15', maintenanceIntervalMonths: 6, access: 'Intérieur', freeAccess: true },
    });
    expect(response.statusCode, response.body).toBe(200);
    const device = deviceSchema.parse(response.json());
    expect(device).toMatchObject({ operatorSiren: '213501794', openingHours: 'Mo-Fr 08:00-18:00; Sa 09:00-12:00', nextMaintenanceDue: '2026-09-15' });
    const audit = await ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from audit_log where action = 'device.update' and entity_id = ${deviceId}`);
    expect(audit.rows[0]!.n).toBe(1);
  });

  it('is for the admin only', async () => {
    expect((await as(ctx.app, cookieA)({ method: 'GET', url: '/api/devices' })).statusCode).toBe(403);
    expect((await as(ctx.app, cookieA)({ method: 'PATCH', url: `/api/devices/${deviceId}`, payload: { siteName: 'x' } })).statusCode).toBe(403);
    expect((await as(ctx.app, null)({ method: 'GET', url: `/api/devices/${deviceId}` })).statusCode).toBe(401);
  });
});

describe('registry list: filters, search and paging on the server', () => {
  const tag = 'FLT';
  beforeAll(async () => {
    const specs = [
      { serial: `${tag}-001`, city: 'Lille', state: 'En fonctionnement', batteryExpiry: dayFromToday(-5), adultPadsExpiry: dayFromToday(400), nextMaintenanceDue: dayFromToday(200) },
      { serial: `${tag}-002`, city: 'Lille', state: 'En fonctionnement', batteryExpiry: dayFromToday(700), adultPadsExpiry: dayFromToday(20), nextMaintenanceDue: dayFromToday(300) },
      { serial: `${tag}-003`, city: 'Lens', state: 'Hors service', batteryExpiry: dayFromToday(700), adultPadsExpiry: dayFromToday(700), nextMaintenanceDue: dayFromToday(50) },
      { serial: `${tag}-004`, city: 'Arras', state: 'En fonctionnement', batteryExpiry: dayFromToday(700), adultPadsExpiry: dayFromToday(700), nextMaintenanceDue: dayFromToday(80) },
      { serial: `${tag}-005`, city: 'Arras', state: 'Supprimé définitivement', batteryExpiry: dayFromToday(-100), adultPadsExpiry: null, nextMaintenanceDue: null },
    ];
    for (const spec of specs) {
      const response = await admin()({
        method: 'POST',
        url: '/api/devices',
        payload: { serialNumber: spec.serial, city: spec.city, model: 'Filtre 3000', functionalState: spec.state, batteryExpiry: spec.batteryExpiry, adultPadsExpiry: spec.adultPadsExpiry, nextMaintenanceDue: spec.nextMaintenanceDue },
      });
      expect(response.statusCode, response.body).toBe(201);
    }
  });

  const serials = async (query: string) => {
    const response = await admin()({ method: 'GET', url: `/api/devices?search=filtre 3000&${query}` });
    expect(response.statusCode, response.body).toBe(200);
    return { serials: deviceListItemSchema.array().parse(response.json()).map((d) => d.serialNumber), total: Number(response.headers['x-total-count']) };
  };

  it('filters by state and by the battery, electrodes or maintenance due date', async () => {
    expect((await serials('state=Hors service')).serials).toEqual([`${tag}-003`]);
    expect((await serials('due=expired&dueSubject=battery')).serials.sort()).toEqual([`${tag}-001`, `${tag}-005`]);
    expect((await serials('due=30&dueSubject=pads')).serials).toEqual([`${tag}-002`]);
    expect((await serials('due=60&dueSubject=maintenance')).serials).toEqual([`${tag}-003`]);
    expect((await serials('due=90&dueSubject=maintenance')).serials).toEqual([`${tag}-003`, `${tag}-004`]);
    expect((await serials('due=30')).serials.sort()).toEqual([`${tag}-001`, `${tag}-002`, `${tag}-005`]);
    // Attention: out of order, or due within 30 days — not a device removed for good.
    expect((await serials('attention=true')).serials.sort()).toEqual([`${tag}-001`, `${tag}-002`, `${tag}-003`]);
  });

  it('searches serial, commune and model, soonest due first, paged with X-Total-Count', async () => {
    const all = await serials('');
    expect(all.total).toBe(5);
    expect(all.serials.slice(0, 3)).toEqual([`${tag}-005`, `${tag}-001`, `${tag}-002`]);
    const page = await admin()({ method: 'GET', url: '/api/devices?search=filtre 3000&limit=2&offset=2' });
    expect(page.headers['x-total-count']).toBe('5');
    expect(page.json().map((d: { serialNumber: string }) => d.serialNumber)).toEqual(all.serials.slice(2, 4));
    const byCity = await admin()({ method: 'GET', url: '/api/devices?search=arras' });
    expect(byCity.json().map((d: { serialNumber: string }) => d.serialNumber).sort()).toEqual([`${tag}-004`, `${tag}-005`]);
    const bySerial = await admin()({ method: 'GET', url: '/api/devices?search=flt-003' });
    expect(bySerial.json()).toHaveLength(1);
    const bad = await admin()({ method: 'GET', url: '/api/devices?due=45' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/Échéance invalide/);
  });

  it('counts the devices needing attention in the admin badge', async () => {
    const counts = await admin()({ method: 'GET', url: '/api/admin/counts' });
    const attention = await admin()({ method: 'GET', url: '/api/devices?attention=true&limit=1' });
    expect(counts.json().parcDae).toBe(Number(attention.headers['x-total-count']));
    expect(counts.json().parcDae).toBeGreaterThanOrEqual(3);
  });

  it('totals the unfiltered registry and « à surveiller » from the kept counts, exactly as counting the table', async () => {
    const total = async (query: string) => Number((await admin()({ method: 'GET', url: `/api/devices?limit=1${query}` })).headers['x-total-count']);
    const [{ n: rows } = { n: -1 }] = await ctx.db.select({ n: count() }).from(devices);
    expect(await total('')).toBe(rows);
    const [{ n: attention } = { n: -1 }] = await ctx.db.select({ n: count() }).from(devices).where(attentionCondition(attentionLimitDay()));
    expect(await total('&attention=true')).toBe(attention);
    // With another filter beside it, a count over the table; a short first page is its own total.
    expect(await total('&attention=true&search=filtre 3000')).toBe(3);
    expect(Number((await admin()({ method: 'GET', url: '/api/devices?attention=true&search=filtre 3000' })).headers['x-total-count'])).toBe(3);
  });
});

describe('maintenance labels', () => {
  it('prints a device’s label with its dates (admin), readable by an independent PDF reader', async () => {
    const created = await admin()({
      method: 'POST',
      url: '/api/devices',
      payload: { serialNumber: 'LBL-31415', manufacturer: 'Philips', model: 'HeartStart HS1', operatorName: 'Mairie de Lumière', operatorPhone: '01 23 45 67 89', batteryExpiry: '2028-05-12', adultPadsExpiry: '2027-06-30', pediatricPadsPresent: false, lastMaintenanceOn: '2026-04-02' },
    });
    const response = await admin()({ method: 'GET', url: `/api/devices/${created.json().id}/label` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(String(response.headers['content-disposition'])).toMatch(/^attachment; filename="etiquette-LBL-31415\.pdf"/);
    const pdf = await readPdf(response.rawPayload);
    const text = pdf.pages.join('\n');
    for (const expected of ['LBL-31415', 'Philips HeartStart HS1', 'Mairie de Lumière', '02/04/2027', '12/05/2028', '30/06/2027', 'PROCHAINE MAINTENANCE']) expect(text).toContain(expected);
    expect((await as(ctx.app, cookieA)({ method: 'GET', url: `/api/devices/${created.json().id}/label` })).statusCode).toBe(403);
  });

  it('prints a lot’s sheet for its recruited technician and the admin, 404 for anyone else', async () => {
    const lot = await makeLotWithDevices(ctx.db, { technicianId: techA.technician.id, serials: ['SHEET-1001', 'SHEET-1002', 'SHEET-1003'] });
    const own = await as(ctx.app, cookieA)({ method: 'GET', url: `/api/mission-batches/${lot.batchId}/labels` });
    expect(own.statusCode, own.body).toBe(200);
    const text = (await readPdf(own.rawPayload)).pages.join('\n');
    for (const serial of ['SHEET-1001', 'SHEET-1002', 'SHEET-1003']) expect(text).toContain(serial);
    expect((await admin()({ method: 'GET', url: `/api/mission-batches/${lot.batchId}/labels` })).statusCode).toBe(200);
    const other = await as(ctx.app, cookieB)({ method: 'GET', url: `/api/mission-batches/${lot.batchId}/labels` });
    expect(other.statusCode).toBe(404);
    expect(other.json().code).toBe('NOT_FOUND');
  });
});
