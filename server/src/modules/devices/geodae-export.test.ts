import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { geodaeExportCheckSchema } from '@maillon/common/schemas/devices';
import { as, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';
import { validateTable, type TableSchema } from '../../../test/table-schema';

/**
 * The Géo'DAE export conforms to the vendored schema-dae 1.0.8: every produced file is parsed with csv-parse (not our
 * writer) and checked by a generic Table Schema checker reading server/data-files/schema-dae-1.0.8.json.
 */
const schemaFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../data-files/schema-dae-1.0.8.json');
const schema = JSON.parse(fs.readFileSync(schemaFile, 'utf8')) as TableSchema & { version: string };

let ctx: TestContext;
let cookieAdmin: string;
let cookieTech: string;
const FROM = '2026-01-01';
const TO = '2026-06-30';

const complete = {
  siteName: 'Mairie de Villeneuve, « hall » d’accueil',
  address: '12 bis avenue de la République',
  postalCode: '69003',
  city: 'Lyon',
  latitude: 45.75332,
  longitude: 4.86943,
  access: 'Intérieur',
  freeAccess: true,
  accessFloor: '0',
  accessDetails: 'À gauche de l’accueil, près de l’ascenseur',
  openingHours: 'Mo-Fr 08:00-18:00; Sa 09:00-12:00; PH off',
  sitePhone: '04 72 00 00 01',
  siteEmail: 'accueil@villeneuve-exemple.fr',
  manufacturer: 'Zoll',
  model: 'AED Plus',
  operatorName: 'Commune de Villeneuve',
  operatorSiren: '213501794',
  operatorPhone: '04 72 00 00 02',
  operatorEmail: 'dae@villeneuve-exemple.fr',
  functionalState: 'En fonctionnement',
  batteryExpiry: '2029-03-31',
  adultPadsExpiry: '2028-01-15',
  pediatricPadsPresent: true,
  pediatricPadsExpiry: '2027-11-30',
  installedOn: '2019-09-30',
  lastMaintenanceOn: '2026-03-10',
};

async function addDevice(serialNumber: string, fields: Record<string, unknown>) {
  const response = await as(ctx.app, cookieAdmin)({ method: 'POST', url: '/api/devices', payload: { serialNumber, ...fields } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}

beforeAll(async () => {
  ctx = await createTestContext({ CHARITY_NAME: 'Association Maillon, chaîne de survie' });
  const admin = await createAdmin(ctx.db);
  const tech = await createTechnician(ctx.db);
  cookieAdmin = await login(ctx.app, admin.email);
  cookieTech = await login(ctx.app, tech.technician.email);
  await addDevice('GEO-0001', complete);
  await addDevice('GEO-0002', { ...complete, siteName: 'Stade « Gerland »', openingHours: '24/7', freeAccess: false, access: 'Extérieur', pediatricPadsPresent: false, latitude: 43.29551, longitude: -0.37081, sitePhone: '+33 5 59 00 00 00', lastMaintenanceOn: '2026-06-30' });
  await addDevice('GEO-0003', { ...complete, functionalState: 'Hors service', installedOn: null, siteEmail: null, lastMaintenanceOn: '2026-01-01' });
  // Reported, not exported: no coordinates; an invalid SIREN and no opening hours; no exploitant at all.
  await addDevice('GEO-0004', { ...complete, latitude: null, longitude: null });
  await addDevice('GEO-0005', { ...complete, operatorSiren: null, openingHours: null });
  await addDevice('GEO-0006', { manufacturer: 'Philips', model: 'HS1', lastMaintenanceOn: '2026-02-02' });
  // Outside the range.
  await addDevice('GEO-0007', { ...complete, lastMaintenanceOn: '2025-12-31' });
}, 60_000);
afterAll(async () => {
  await ctx?.close();
});

describe('Géo’DAE export', () => {
  it('vendors schema-dae 1.0.8 with dispo_horaires', () => {
    expect(schema.version).toBe('1.0.8');
    expect(schema.fields.map((f) => f.name)).toContain('dispo_horaires');
    expect(schema.fields.map((f) => f.name)).not.toContain('disp_j');
  });

  it('lists the devices maintained in the range that lack mandatory data, with what they lack', async () => {
    const response = await as(ctx.app, cookieAdmin)({ method: 'GET', url: `/api/devices/geodae-export/check?from=${FROM}&to=${TO}` });
    expect(response.statusCode, response.body).toBe(200);
    const check = geodaeExportCheckSchema.parse(response.json());
    expect(check).toMatchObject({ maintained: 6, exportable: 3 });
    const missing = Object.fromEntries(check.excluded.map((d) => [d.serialNumber, d.missing]));
    expect(missing['GEO-0004']).toEqual(['Coordonnées (latitude et longitude)']);
    expect(missing['GEO-0005']).toEqual(['Horaires de disponibilité', 'SIREN de l’exploitant']);
    expect(missing['GEO-0006']).toEqual(
      expect.arrayContaining(['Nom du site', 'Coordonnées (latitude et longitude)', 'Environnement (intérieur ou extérieur)', 'Raison sociale de l’exploitant', 'E-mail de l’exploitant', 'Téléphone du site']),
    );
  });

  it('writes a comma-separated UTF-8 file that conforms to the vendored schema, the incomplete devices left out', async () => {
    const response = await as(ctx.app, cookieAdmin)({ method: 'GET', url: `/api/devices/geodae-export?from=${FROM}&to=${TO}` });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(String(response.headers['content-disposition'])).toMatch(/^attachment; filename="geodae-2026-01-01-2026-06-30\.csv"/);
    expect(response.headers['x-exported-count']).toBe('3');
    expect(response.headers['x-excluded-count']).toBe('3');
    const bytes = response.rawPayload;
    expect(bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(false);
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    const records = parse(text, { delimiter: ',', relax_column_count: true }) as string[][];
    expect(records[0]).toEqual(schema.fields.map((f) => f.name));
    expect(validateTable(schema, records)).toEqual([]);

    const rows = records.slice(1).map((cells) => Object.fromEntries(records[0]!.map((name, i) => [name, cells[i]!])));
    expect(rows.map((r) => r.num_serie).sort()).toEqual(['GEO-0001', 'GEO-0002', 'GEO-0003']);
    const first = rows.find((r) => r.num_serie === 'GEO-0001')!;
    expect(first).toMatchObject({
      nom: 'Mairie de Villeneuve, « hall » d’accueil',
      adr_num: '12 bis',
      adr_voie: 'avenue de la République',
      acc: 'Intérieur',
      acc_lib: 'oui',
      dispo_horaires: 'Mo-Fr 08:00-18:00; Sa 09:00-12:00; PH off',
      tel1: '+33472000001',
      expt_tel1: '+33472000002',
      etat_fonct: 'En fonctionnement',
      fab_rais: 'Zoll',
      modele: 'AED Plus',
      lc_ped: 'oui',
      dtpr_lcped: '2027-11-30',
      dtpr_lcad: '2028-01-15',
      dtpr_bat: '2029-03-31',
      dermnt: '2026-03-10',
      date_instal: '2019-09-30',
      expt_siren: '213501794',
      mnt_rais: 'Association Maillon, chaîne de survie',
      freq_mnt: 'Tous les 12 mois',
    });
    const second = rows.find((r) => r.num_serie === 'GEO-0002')!;
    expect(second).toMatchObject({ acc_lib: 'non', acc: 'Extérieur', lc_ped: 'non', dtpr_lcped: '', long_coor1: '-0.37081', dispo_horaires: '24/7', tel1: '+33559000000' });
    expect(rows.find((r) => r.num_serie === 'GEO-0004')).toBeUndefined();
  });

  it('would catch a non-conforming file (the checker is not a rubber stamp)', () => {
    const header = schema.fields.map((f) => f.name);
    const good = header.map((name) => ({ nom: 'x', lat_coor1: '45.1', long_coor1: '4.8', acc: 'Intérieur', acc_lib: 'oui', dispo_horaires: '24/7', tel1: '+33472000001', etat_fonct: 'Inconnu', fab_rais: 'Zoll', modele: 'X', num_serie: 'A1', dermnt: '2026-01-01', expt_siren: '213501794', expt_rais: 'C', expt_tel1: '+33472000002', expt_email: 'a@b.fr' })[name] ?? '');
    expect(validateTable(schema, [header, good])).toEqual([]);
    const bad = [...good];
    bad[header.indexOf('acc_lib')] = 'true';
    bad[header.indexOf('etat_fonct')] = 'En panne';
    bad[header.indexOf('dermnt')] = '10/03/2026';
    bad[header.indexOf('tel1')] = '04 72 00 00 01';
    bad[header.indexOf('expt_siren')] = '213501798';
    bad[header.indexOf('dispo_horaires')] = 'lundi-vendredi';
    const errors = validateTable(schema, [header, bad, good]);
    for (const column of ['acc_lib', 'etat_fonct', 'dermnt', 'tel1', 'expt_siren', 'dispo_horaires', 'num_serie']) {
      expect(errors.some((e) => e.includes(column)), column).toBe(true);
    }
  });

  it('refuses a bad range or an empty export with a French message, and is for the admin only', async () => {
    const reversed = await as(ctx.app, cookieAdmin)({ method: 'GET', url: `/api/devices/geodae-export?from=${TO}&to=${FROM}` });
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().message).toBe('La date de début doit précéder la date de fin');
    const empty = await as(ctx.app, cookieAdmin)({ method: 'GET', url: '/api/devices/geodae-export?from=2020-01-01&to=2020-12-31' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Aucun défibrillateur maintenu sur cette période');
    expect((await as(ctx.app, cookieTech)({ method: 'GET', url: `/api/devices/geodae-export?from=${FROM}&to=${TO}` })).statusCode).toBe(403);
  });
});
