import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { statementYearSchema } from '@maillon/common/schemas/payout-batches';
import { invoices, transfers } from '../../db/schema';
import { as, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';
import { readPdf } from '../../../test/pdf';
import { FEC_COLUMNS, auxiliaryAccount } from './accounting-journal';
import { parisMidnight } from './statements.service';

/**
 * Issue 21: the technician's « Relevé annuel des paiements » (PDF, read back with pdf.js and rendered with pdftoppm
 * under test-results/statements/) and the charity's accounting export (FEC-like CSV, read back with csv-parse).
 */
const OUT = path.resolve(import.meta.dirname, '../../../../test-results/statements');
let ctx: TestContext;
let adminCookie: string;
let tech: { id: string; cookie: string };
let other: { id: string; cookie: string };

async function paid(technicianId: string, { ref, cents, at, title }: { ref: string; cents: number; at: string; title: string }) {
  const [invoice] = await ctx.db
    .insert(invoices)
    .values({ technicianId, missionTitle: title, status: 'Facture envoyée', validatedAmountCents: cents, reference: ref, invoiceDate: new Date(at) })
    .returning({ id: invoices.id });
  await ctx.db.insert(transfers).values({ technicianId, invoiceId: invoice!.id, status: 'Effectué', invoiceRef: ref, transferRef: `SEPA-TEST-${ref}`, amountCents: cents, transferDate: new Date(at) });
}

beforeAll(async () => {
  ctx = await createTestContext({ CHARITY_SIRET: '73282932000074', CHARITY_NAME: 'Association Maillon pour la chaîne de survie' });
  adminCookie = await login(ctx.app, (await createAdmin(ctx.db)).email);
  const a = await createTechnician(ctx.db, { firstName: 'Zoé', lastName: 'Lefèvre', companyName: 'Lefèvre Défibrillateurs', siret: '81234567800012', address: '3 rue de l’Église', postalCode: '69001', city: 'Lyon' });
  const b = await createTechnician(ctx.db, { firstName: 'Marc', lastName: 'Autre' });
  tech = { id: a.technician.id, cookie: await login(ctx.app, a.user.email) };
  other = { id: b.technician.id, cookie: await login(ctx.app, b.user.email) };
  await paid(tech.id, { ref: 'FAC-2025-09', cents: 30_000, at: '2025-06-15T10:00:00Z', title: 'Lyon 2025' });
  // 31/12/2025 23:30 UTC is already 1 January 2026 in Paris: it belongs to 2026.
  await paid(tech.id, { ref: 'FAC-2026-01', cents: 65_000, at: '2025-12-31T23:30:00Z', title: 'Villeurbanne - écoles « printemps »' });
  await paid(tech.id, { ref: 'FAC-2026-02', cents: 48_050, at: '2026-03-02T09:00:00Z', title: 'Lyon Centre' });
  await paid(tech.id, { ref: 'FAC-2026-03', cents: 123_456, at: '2026-11-20T15:00:00Z', title: 'Bron' });
  await paid(other.id, { ref: 'AUT-2026-1', cents: 10_000, at: '2026-05-05T12:00:00Z', title: 'Autre mission' });
  // Waiting and refused transfers are not payments.
  await ctx.db.insert(transfers).values([
    { technicianId: tech.id, status: 'Enregistré', invoiceRef: 'WAIT', amountCents: 999 },
    { technicianId: tech.id, status: 'Refus', invoiceRef: 'NO', amountCents: 999, transferDate: new Date('2026-04-01T10:00:00Z') },
  ]);
  fs.mkdirSync(OUT, { recursive: true });
});
afterAll(async () => {
  await ctx.close();
});

describe('yearly payment statements', () => {
  it('lists the years with their totals, in Paris time', async () => {
    const response = await as(ctx.app, tech.cookie)({ method: 'GET', url: `/api/technician/${tech.id}/statements` });
    expect(statementYearSchema.array().parse(response.json())).toEqual([
      { year: 2026, count: 3, total: 2365.06 },
      { year: 2025, count: 1, total: 300 },
    ]);
    expect(parisMidnight('2026-01-01').toISOString()).toBe('2025-12-31T23:00:00.000Z');
    expect(parisMidnight('2026-07-01').toISOString()).toBe('2026-06-30T22:00:00.000Z');
  });

  it('gives the technician its « Relevé annuel des paiements » PDF, read back and rendered', async () => {
    const response = await as(ctx.app, tech.cookie)({ method: 'GET', url: `/api/technician/${tech.id}/statements/annual.pdf?year=2026` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toContain('releve-paiements-2026-zoe-lefevre.pdf');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    const bytes = response.rawPayload;
    const file = path.join(OUT, 'releve-annuel-2026.pdf');
    fs.writeFileSync(file, bytes);
    const pdf = await readPdf(bytes);
    const text = pdf.pages.join('\n');
    for (const expected of [
      'Association Maillon pour la chaîne de survie',
      'SIRET 732 829 320 00074',
      'Relevé annuel des paiements',
      'Année 2026 · du 01/01/2026 au 31/12/2026',
      'Zoé Lefèvre',
      'Lefèvre Défibrillateurs',
      '81234567800012',
      '01/01/2026',
      'SEPA-TEST-FAC-2026-01',
      'FAC-2026-02',
      'Villeurbanne - écoles «',
      'printemps »',
      '650,00\u00a0€',
      '1\u202f234,56\u00a0€',
      'Total HT 2026',
      '2\u202f365,06\u00a0€',
      'Montants hors taxes (HT)',
    ]) {
      expect(text, expected).toContain(expected);
    }
    for (const absent of ['FAC-2025-09', 'AUT-2026-1', 'WAIT']) expect(text).not.toContain(absent);
    expect(pdf.info.Title).toBe('Relevé annuel des paiements 2026 – Zoé Lefèvre');
    execFileSync('pdftoppm', ['-png', '-r', '60', file, path.join(OUT, 'releve-annuel-2026')]);
    expect(fs.existsSync(path.join(OUT, 'releve-annuel-2026-1.png'))).toBe(true);

    const empty = await as(ctx.app, tech.cookie)({ method: 'GET', url: `/api/technician/${tech.id}/statements/annual.pdf?year=2024` });
    expect((await readPdf(empty.rawPayload)).pages.join('\n')).toContain('Aucun virement n’a été effectué en 2024.');
  }, 30_000);

  it('lets the admin export it for any technician; another technician gets 404; bad years 400', async () => {
    const byAdmin = await as(ctx.app, adminCookie)({ method: 'GET', url: `/api/technician/${tech.id}/statements/annual.pdf?year=2025` });
    expect(byAdmin.statusCode).toBe(200);
    const text = (await readPdf(byAdmin.rawPayload)).pages.join('\n');
    expect(text).toContain('FAC-2025-09');
    expect(text).not.toContain('FAC-2026-01');
    expect((await as(ctx.app, other.cookie)({ method: 'GET', url: `/api/technician/${tech.id}/statements/annual.pdf?year=2026` })).statusCode).toBe(404);
    expect((await as(ctx.app, other.cookie)({ method: 'GET', url: `/api/technician/${tech.id}/statements` })).statusCode).toBe(404);
    expect((await as(ctx.app, null)({ method: 'GET', url: `/api/technician/${tech.id}/statements` })).statusCode).toBe(401);
    for (const year of ['1999', 'abc', '2026.5', '']) {
      const response = await as(ctx.app, tech.cookie)({ method: 'GET', url: `/api/technician/${tech.id}/statements/annual.pdf?year=${year}` });
      expect(response.statusCode, year).toBe(400);
      expect(response.json().message).toBe('Année invalide');
    }
  }, 30_000);
});

describe('accounting export of payments', () => {
  it('writes a balanced FEC-like journal (401 debit / 512 credit per payment) that csv-parse reads', async () => {
    const response = await as(ctx.app, adminCookie)({ method: 'GET', url: '/api/payments/accounting.csv?from=2026-01-01&to=2026-12-31' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toContain('paiements-2026-01-01-au-2026-12-31.csv');
    expect(response.headers['x-payment-count']).toBe('4');
    fs.writeFileSync(path.join(OUT, 'paiements-2026.csv'), response.body);
    expect(response.body.startsWith('\uFEFF')).toBe(true);
    const records = parse(response.body, { bom: true, delimiter: ';', columns: true, skip_empty_lines: true }) as Record<string, string>[];
    expect(Object.keys(records[0]!)).toEqual([...FEC_COLUMNS]);
    expect(records).toHaveLength(8);
    const cents = (v: string) => Math.round(Number(v.replace(',', '.')) * 100);
    expect(records.reduce((s, r) => s + cents(r.Debit!), 0)).toBe(records.reduce((s, r) => s + cents(r.Credit!), 0));
    expect(records.reduce((s, r) => s + cents(r.Debit!), 0)).toBe(65_000 + 48_050 + 123_456 + 10_000);
    const first = records.filter((r) => r.EcritureNum === 'BQ000001');
    expect(first).toEqual([
      expect.objectContaining({ JournalCode: 'BQ', EcritureDate: '20260101', CompteNum: '401000', CompteLib: 'Fournisseurs', CompAuxNum: auxiliaryAccount(tech.id), CompAuxLib: 'Zoé Lefèvre (Lefèvre Défibrillateurs)', PieceRef: 'SEPA-TEST-FAC-2026-01', EcritureLib: 'Virement facture FAC-2026-01 Zoé Lefèvre', Debit: '650,00', Credit: '0,00', ValidDate: '20260101' }),
      expect.objectContaining({ CompteNum: '512000', CompteLib: 'Banque', CompAuxNum: '', Debit: '0,00', Credit: '650,00' }),
    ]);
    for (const record of records) {
      expect(record.EcritureDate).toMatch(/^\d{8}$/);
      expect(record.Debit).toMatch(/^\d+,\d{2}$/);
    }
    expect(records.map((r) => r.PieceRef)).not.toContain('SEPA-TEST-FAC-2025-09');

    const small = parse((await as(ctx.app, adminCookie)({ method: 'GET', url: '/api/payments/accounting.csv?from=2025-01-01&to=2025-12-31' })).body, { bom: true, delimiter: ';', columns: true }) as Record<string, string>[];
    expect(small.map((r) => r.PieceRef)).toEqual(['SEPA-TEST-FAC-2025-09', 'SEPA-TEST-FAC-2025-09']);
  });

  it('validates the period and keeps the export to the admin', async () => {
    for (const query of ['from=2026-12-31&to=2026-01-01', 'from=2026-02-30&to=2026-03-01', 'from=2010-01-01&to=2026-01-01', 'to=2026-01-01', '']) {
      const response = await as(ctx.app, adminCookie)({ method: 'GET', url: `/api/payments/accounting.csv?${query}` });
      expect(response.statusCode, query).toBe(400);
    }
    expect((await as(ctx.app, tech.cookie)({ method: 'GET', url: '/api/payments/accounting.csv?from=2026-01-01&to=2026-12-31' })).statusCode).toBe(403);
  });
});
