import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { StoredEInvoice } from '@maillon/common/schemas/e-invoice';
import { invoices, invoicesFiles, payoutBatches, payoutBatchLines, storedFiles, transfers } from '../../db/schema';
import { rowsOf } from '../../lib/change-feed/triggers';
import { TOTAL_CAP } from '../../lib/pagination';
import { type as, createTechnician, type TestContext, withAdminApp } from '../../../test/helpers';
import { adminInvoiceSchema } from '@maillon/common/schemas/money';
import { adminInvoiceById } from './money.service';
import { expectSearchPages } from '../../../test/search-pages';
import { expectPageAsRead } from '../../../test/page-json';

let ctx: TestContext;
let admin: ReturnType<typeof as>;
withAdminApp((app) => ({ ctx, admin } = app));

const at = (iso: string) => sql`${iso}::timestamptz` as unknown as Date;
const eInvoice: StoredEInvoice = {
  syntax: 'CII',
  attachmentName: 'factur-x.xml',
  profileId: 'urn:factur-x.eu:1p0:basic',
  profile: 'BASIC',
  invoiceNumber: 'F-2026-001',
  typeCode: '380',
  issueDate: '2026-03-01',
  currency: 'EUR',
  seller: { name: 'Martin « Maintenance »', legalId: '812', legalIdScheme: '0002', vatId: null },
  buyer: { name: null, legalId: null, legalIdScheme: null },
  taxBasisCents: 40_000,
  taxCents: 8_000,
  grandTotalCents: 48_000,
  duePayableCents: 48_000,
};

/** Every card of a page, parsed with the schema (no key more), equals the card an admin action answers (decision 052). */
const expectCards = (body: unknown, label: string) => expectPageAsRead(body, adminInvoiceSchema, (id) => adminInvoiceById(ctx.db, id), label);

describe('GET /api/invoices: the page written by PostgreSQL (decisions 031, 052)', () => {
  it('answers each card as the single-card read does, in order, with the total of the table', async () => {
    const { technician: martin } = await createTechnician(ctx.db, { firstName: 'Jeanne', lastName: 'Martin', companyName: 'Martin SARL' });
    const { technician: other } = await createTechnician(ctx.db, { firstName: ' Zoé', lastName: 'Ærø ' });
    const { technician: third } = await createTechnician(ctx.db, { firstName: 'Émile\t', lastName: '' });
    const made = await ctx.db
      .insert(invoices)
      .values([
        { technicianId: martin.id, status: 'Facture envoyée', reference: 'F-2026-001', invoiceNumber: 'F-2026-001', amountCents: 48_000, validatedAmountCents: 48_000, invoiceDate: at('2026-03-01 09:00:00.456789+00'), createdAt: at('2026-03-02 10:00:00.999999+00') },
        { technicianId: martin.id, status: 'Facture envoyée', missionTitle: 'Lot « x »', createdAt: at('2026-03-02 09:00:00+00') },
        { technicianId: other.id, status: 'Mission à terminer', description: 'Ligne 1\nLigne 2', createdAt: at('2026-03-01 00:00:00+00') },
        { technicianId: other.id, status: 'Terminé', paidDate: at('2026-03-05 00:00:00+00'), dueDate: at('2026-03-04 00:00:00+00'), createdAt: at('2026-03-01 00:00:00+00') },
        { technicianId: martin.id, status: 'Facture à soumettre', createdAt: at('2026-02-01 00:00:00+00') },
        // Amounts that are not whole euros, an archived status of old, a title with quotes, an emoji and a line break.
        {
          technicianId: third.id, status: 'Traité', missionTitle: 'Lot "Sud" 🫀\nsuite', amountCents: 12_345, initialAmountCents: 1,
          validatedAmountCents: 99_999, batchPriceCents: 10, progression: '3/7', createdAt: at('2026-01-15 08:30:00.000001+00'),
        },
        // A plain PDF whose transfer was paid; a Factur-X file whose amounts could not be read.
        { technicianId: third.id, status: 'Facture envoyée', reference: 'PDF-1', createdAt: at('2026-01-14 00:00:00+00') },
        { technicianId: third.id, status: 'Facture envoyée', reference: 'FX-2', createdAt: at('2026-01-13 00:00:00+00') },
      ])
      .returning({ id: invoices.id });
    const [sent, paid, , done, , , plain, unread] = made.map((i) => i.id);
    // The first invoice: a refused transfer, then a waiting one in a prepared payout batch, and two submitted files.
    const [, waiting] = await ctx.db
      .insert(transfers)
      .values([
        { technicianId: martin.id, invoiceId: sent!, status: 'Refus', invoiceRef: 'F-2026-001', createdAt: at('2026-03-02 11:00:00+00') },
        { technicianId: martin.id, invoiceId: sent!, status: 'Enregistré', invoiceRef: 'F-2026-001', bankAccountLast4: '0189', amountCents: 48_000, createdAt: at('2026-03-02 12:00:00.000500+00') },
        { technicianId: martin.id, invoiceId: paid!, status: 'Effectué', invoiceRef: 'X', transferRef: 'VIR-1', transferDate: at('2026-03-03 00:00:00+00') },
        { technicianId: other.id, invoiceId: done!, status: 'Enregistré', invoiceRef: 'Y' },
        { technicianId: third.id, invoiceId: plain!, status: 'Effectué', invoiceRef: 'PDF-1', amountCents: 505, transferDate: at('2026-01-20 10:00:00.5+00') },
        { technicianId: third.id, invoiceId: unread!, status: 'Refus', invoiceRef: 'FX-2', amountCents: 1 },
      ])
      .returning({ id: transfers.id });
    const [batch] = await ctx.db
      .insert(payoutBatches)
      .values({ reference: 'VIR-2026-03-001', executionDate: '2026-03-10', debtorName: 'Asso', debtorIban: 'FR76', debtorBic: 'BIC', transferCount: 1, totalCents: 48_000 })
      .returning({ id: payoutBatches.id });
    await ctx.db.insert(payoutBatchLines).values({
      batchId: batch!.id, lineNumber: 1, transferId: waiting!.id, invoiceId: sent!, technicianId: martin.id, creditorName: 'Martin', creditorIban: 'FR76',
      amountCents: 48_000, remittance: 'F-2026-001', endToEndId: 'E2E-1',
    });
    const files = await ctx.db
      .insert(storedFiles)
      .values([
        { technicianId: martin.id, kind: 'invoice', storageKey: `k-${crypto.randomUUID()}`, originalName: 'ancienne.pdf', mimeType: 'application/pdf', size: 1 },
        { technicianId: martin.id, kind: 'invoice', storageKey: `k-${crypto.randomUUID()}`, originalName: 'facture "finale".pdf', mimeType: 'application/pdf', size: 2 },
        { technicianId: third.id, kind: 'invoice', storageKey: `k-${crypto.randomUUID()}`, originalName: 'simple.pdf', mimeType: 'application/pdf', size: 3 },
        { technicianId: third.id, kind: 'invoice', storageKey: `k-${crypto.randomUUID()}`, originalName: 'fx.pdf', mimeType: 'application/pdf', size: 4 },
      ])
      .returning({ id: storedFiles.id });
    await ctx.db.insert(invoicesFiles).values([
      { invoiceId: sent!, technicianId: martin.id, reference: 'A', fileId: files[0]!.id, amountCertifiedCents: 1, createdAt: at('2026-03-01 00:00:00+00') },
      { invoiceId: sent!, technicianId: martin.id, reference: 'B', fileId: files[1]!.id, amountCertifiedCents: 2, eInvoiceFormat: 'factur-x', eInvoice, createdAt: at('2026-03-02 00:00:00+00') },
      { invoiceId: plain!, technicianId: third.id, reference: 'PDF-1', fileId: files[2]!.id, amountCertifiedCents: 505, eInvoiceFormat: 'pdf' },
      {
        invoiceId: unread!, technicianId: third.id, reference: 'FX-2', fileId: files[3]!.id, amountCertifiedCents: 1, eInvoiceFormat: 'factur-x',
        eInvoice: { ...eInvoice, invoiceNumber: 'FX-2', taxBasisCents: null, taxCents: 1, grandTotalCents: 12_345, duePayableCents: null },
      },
    ]);

    const expected = async (where = sql`true`) =>
      rowsOf<{ id: string }>(
        await ctx.db.execute(sql`select i.id from invoices i join technicians t on t.id = i.technician_id where ${where} order by i.created_at desc, i.id desc`),
      ).map((r) => r.id);
    const order = await expected();
    const response = await admin({ method: 'GET', url: '/api/invoices?limit=100' });
    expect(response.statusCode).toBe(200);
    expect(response.json().map((i: { id: string }) => i.id)).toEqual(order);
    await expectCards(response.json(), 'page');
    expect(response.headers['x-total-count']).toBe(String(order.length));
    expect(response.json()[0]).toMatchObject({
      createdAt: '2026-03-02T10:00:00.999Z',
      invoiceDate: '2026-03-01T09:00:00.456Z',
      latestTransfer: { id: waiting!.id, status: 'Enregistré' },
      fileName: 'facture "finale".pdf',
      fileFormat: 'factur-x',
      eInvoice: { invoiceNumber: 'F-2026-001', grandTotalAmount: 480 },
      payoutBatchReference: 'VIR-2026-03-001',
    });
    const card = (id: string) => response.json().find((i: { id: string }) => i.id === id);
    expect(card(done!)).toMatchObject({ technicianName: 'Zoé Ærø', displayStatus: 'Terminé', paidDate: '2026-03-05T00:00:00.000Z', fileId: null, eInvoice: null });
    expect(card(made[5]!.id)).toMatchObject({
      technicianName: 'Émile\t', missionTitle: 'Lot "Sud" 🫀\nsuite', amount: 123.45, initialAmount: 0.01, validatedAmount: 999.99,
      batchPrice: 0.1, displayStatus: 'Terminé', latestTransfer: null, createdAt: '2026-01-15T08:30:00.000Z',
    });
    expect(card(plain!)).toMatchObject({
      displayStatus: 'Terminé', fileFormat: 'pdf', eInvoice: null, payoutBatchReference: null,
      latestTransfer: { status: 'Effectué', amount: 5.05, transferDate: '2026-01-20T10:00:00.500Z' },
    });
    expect(card(unread!)).toMatchObject({
      displayStatus: 'Facture envoyée', fileName: 'fx.pdf',
      eInvoice: { invoiceNumber: 'FX-2', taxBasisAmount: null, taxAmount: 0.01, grandTotalAmount: 123.45, duePayableAmount: null },
    });
    expect(card(unread!).eInvoice).not.toHaveProperty('taxCents');

    const cases: [string, ReturnType<typeof sql>][] = [
      ['', sql`true`],
      [`technicianId=${other.id}`, sql`i.technician_id = ${other.id}`],
      ['search=martin', sql`(t.last_name ilike '%martin%' or t.company_name ilike '%martin%')`],
      [`status=${encodeURIComponent('Facture envoyée')}`, sql`i.status = 'Facture envoyée' and not exists (select 1 from transfers tr where tr.invoice_id = i.id and tr.status = 'Effectué')`],
      [`status=${encodeURIComponent('Terminé')}`, sql`(i.status in ('Terminé', 'Traité') or exists (select 1 from transfers tr where tr.invoice_id = i.id and tr.status = 'Effectué'))`],
    ];
    for (const [query, where] of cases) {
      const all = await expected(where);
      for (const [limit, offset] of [[100, 0], [1, 0], [2, 1], [2, 30]] as const) {
        const page = await admin({ method: 'GET', url: `/api/invoices?${query}&limit=${limit}&offset=${offset}` });
        expect(page.statusCode, query).toBe(200);
        expect(page.json().map((i: { id: string }) => i.id), `${query} ${limit} ${offset}`).toEqual(all.slice(offset, offset + limit));
        expect(page.headers['x-total-count'], `${query} ${limit} ${offset}`).toBe(String(all.length));
        await expectCards(page.json(), `${query} ${limit} ${offset}`);
      }
    }
  });
});

describe('GET /api/invoices: a search past 1 000 invoices (decision 042)', () => {
  it('counts up to 1 000 over its own text and its technician’s, then walks the order and says « more »', async () => {
    const { technician: capucine } = await createTechnician(ctx.db, { firstName: 'Capucine', lastName: 'Lefort' });
    const { technician: bernard } = await createTechnician(ctx.db, { firstName: 'Bernard', lastName: 'Capet' });
    const { technician: zoe } = await createTechnician(ctx.db, { firstName: 'Zoé', lastName: 'Roux' });
    const owners = [...Array<string>(600).fill(capucine.id), ...Array<string>(300).fill(bernard.id), ...Array<string>(200).fill(zoe.id)];
    await ctx.db.insert(invoices).values(
      owners.map((technicianId, n) => ({
        technicianId,
        status: n % 3 ? ('Facture envoyée' as const) : ('Mission à terminer' as const),
        reference: `FAC-${n}`,
        // Zoé's match « cap » by their own text only; every tenth of the others too (both sides find them).
        missionTitle: technicianId === zoe.id || n % 10 === 0 ? `Capteur ${n}` : `Lot ${n}`,
        createdAt: at(`2026-04-01 00:${String(Math.floor((n % 600) / 10)).padStart(2, '0')}:00+00`),
      })),
    );
    const own = sql`lower(coalesce(i.reference, '') || ' ' || coalesce(i.mission_title, '') || ' ' || coalesce(i.description, '') || ' ' || coalesce(i.invoice_number, ''))`;
    const its = sql`lower(coalesce(t.first_name, '') || ' ' || coalesce(t.last_name, '') || ' ' || coalesce(t.first_name, '') || ' ' || coalesce(t.email, '') || ' ' || coalesce(t.company_name, ''))`;
    const found = (needle: string) => sql`(${own} like ${`%${needle}%`} or ${its} like ${`%${needle}%`})`;
    const expected = async (where: ReturnType<typeof sql>) =>
      rowsOf<{ id: string }>(
        await ctx.db.execute(sql`select i.id from invoices i join technicians t on t.id = i.technician_id where ${where} order by i.created_at desc, i.id desc`),
      ).map((r) => r.id);
    const cases: [string, ReturnType<typeof sql>, boolean][] = [
      ['search=cap', found('cap'), true],
      ['search=fac-', found('fac-'), true],
      [`search=cap&technicianId=${zoe.id}`, sql`${found('cap')} and i.technician_id = ${zoe.id}`, false],
      ['search=capucine', found('capucine'), false],
      [`search=cap&status=${encodeURIComponent('Facture envoyée')}`, sql`${found('cap')} and i.status = 'Facture envoyée'`, false],
    ];
    for (const [query, where, pastCap] of cases) {
      const all = await expected(where);
      expect(all.length > TOTAL_CAP, query).toBe(pastCap);
      await expectSearchPages((url) => admin({ method: 'GET', url }), `/api/invoices?${query}`, all, [[20, 0], [9, 995], [50, all.length - 20], [20, all.length + 5]]);
      await expectCards((await admin({ method: 'GET', url: `/api/invoices?${query}&limit=5&offset=990` })).json(), query);
    }
  });
});
