import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { invoiceInspectionSchema } from '@maillon/common/schemas/e-invoice';
import { adminInvoiceSchema, invoiceFileSchema } from '@maillon/common/schemas/money';
import { invoices, invoicesFiles, transfers } from '../../db/schema';
import { as, countRows, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';
import { buildCiiXml, embedInvoiceXml, facturXKitPdf, type InvoiceData } from '../../../test/factur-x';
import { IBAN, filesIn, invoiceToSubmit, multipart, samplePdf } from './money.test-helpers';

/**
 * Issue 21: Factur-X invoices read and checked on « Envoyer facture ». Real Factur-X files (factur-x-kit's writer, and
 * CII embedded as a PDF/A-3 associated file) are accepted with their data stored; a wrong amount, seller, buyer or an
 * already used number is refused with a message that says what differs; a plain PDF is accepted and flagged until
 * EINVOICE_REQUIRED_FROM, refused after it.
 */
const CHARITY_SIRET = '73282932000074';
const SIRET = '81234567800012';
let ctx: TestContext;
let adminCookie: string;
let uploadsDir: string;

beforeAll(async () => {
  ctx = await createTestContext({ CHARITY_SIRET });
  adminCookie = await login(ctx.app, (await createAdmin(ctx.db)).email);
  uploadsDir = path.join(ctx.dataDir, 'uploads');
});
afterAll(async () => {
  await ctx.close();
});

async function technicianWithInvoice(validatedCents = 65_000, siret: string | null = SIRET) {
  const { technician, user } = await createTechnician(ctx.db, { iban: IBAN, siret, companyName: 'Martin Maintenance' });
  const cookie = await login(ctx.app, user.email);
  const { invoiceId } = await invoiceToSubmit(ctx.db, { technicianId: technician.id, validatedCents });
  return { technicianId: technician.id, cookie, invoiceId };
}

function send(cookie: string, invoiceId: string, action: 'submit' | 'inspect', pdf: Buffer, fields: Record<string, string> = {}) {
  const body = multipart(fields, { name: 'facture.pdf', content: pdf });
  return as(ctx.app, cookie)({ method: 'POST', url: `/api/invoice/${invoiceId}/${action}`, payload: body.payload, headers: body.headers });
}

const facturX = (data: Partial<InvoiceData> & { number: string }) =>
  embedInvoiceXml(buildCiiXml({ sellerSiret: SIRET, buyerSiret: CHARITY_SIRET, net: 650, ...data }), { profile: data.profile ?? 'EN 16931' });

async function nothingWritten<T>(action: () => Promise<T>): Promise<T> {
  const before = [await countRows(ctx.db, 'transfers'), await countRows(ctx.db, 'invoices_files'), await countRows(ctx.db, 'stored_files'), filesIn(uploadsDir).length];
  const result = await action();
  expect([await countRows(ctx.db, 'transfers'), await countRows(ctx.db, 'invoices_files'), await countRows(ctx.db, 'stored_files'), filesIn(uploadsDir).length]).toEqual(before);
  return result;
}

describe('Factur-X on « Envoyer facture »', () => {
  it('inspects a Factur-X PDF without storing it, then accepts the submission and keeps its data for the admin', async () => {
    const { cookie, invoiceId } = await technicianWithInvoice();
    const pdf = await facturXKitPdf({ profile: 'BASIC WL', number: 'FA-2026-0042', sellerSiret: SIRET, buyerSiret: CHARITY_SIRET, net: 650 });

    const inspection = await nothingWritten(() => send(cookie, invoiceId, 'inspect', pdf));
    expect(inspection.statusCode).toBe(200);
    const body = invoiceInspectionSchema.parse(inspection.json());
    expect(body).toMatchObject({ format: 'factur-x', accepted: true, suggestedReference: 'FA-2026-0042', eInvoice: { profile: 'BASIC WL', invoiceNumber: 'FA-2026-0042', duePayableAmount: 650 } });
    expect(body.summary).toBe('Facture électronique Factur-X (profil BASIC WL) n° FA-2026-0042 du 20/11/2026');
    expect(body.checks.map((c) => [c.key, c.ok])).toEqual([['amount', true], ['seller', true], ['buyer', true], ['number', true]]);

    const submitted = await send(cookie, invoiceId, 'submit', pdf, { reference: 'FA-2026-0042', amount_certified: '650' });
    expect(submitted.statusCode, submitted.body).toBe(201);
    const [row] = await ctx.db.select().from(invoicesFiles).where(eq(invoicesFiles.invoiceId, invoiceId));
    expect(row).toMatchObject({ eInvoiceFormat: 'factur-x', invoiceNumberKey: 'FA-2026-0042', eInvoice: { invoiceNumber: 'FA-2026-0042', profile: 'BASIC WL', seller: { legalId: SIRET }, buyer: { legalId: CHARITY_SIRET }, duePayableCents: 65_000 } });

    // The admin sees the data beside the file.
    const list = await as(ctx.app, adminCookie)({ method: 'GET', url: `/api/invoices?search=FA-2026-0042` });
    const [card] = adminInvoiceSchema.array().parse(list.json());
    expect(card).toMatchObject({ fileFormat: 'factur-x', eInvoice: { invoiceNumber: 'FA-2026-0042', issueDate: '2026-11-20', seller: { legalId: SIRET }, grandTotalAmount: 650 } });
    const files = await as(ctx.app, adminCookie)({ method: 'GET', url: `/api/invoice-files?invoiceId=${invoiceId}` });
    expect(invoiceFileSchema.array().parse(files.json())[0]).toMatchObject({ format: 'factur-x', eInvoice: { profile: 'BASIC WL' } });
  }, 30_000);

  it('accepts every profile (factur-x-kit MINIMUM, our BASIC / EN 16931 / EXTENDED), identified by SIRET or SIREN', async () => {
    const samples: [string, Buffer][] = [
      ['MINIMUM', await facturXKitPdf({ profile: 'MINIMUM', number: 'MIN-1', sellerSiret: SIRET, buyerSiret: CHARITY_SIRET, net: 650 })],
      ['BASIC', await facturX({ profile: 'BASIC', number: 'BAS-1' })],
      ['EN 16931', await facturX({ profile: 'EN 16931', number: 'EN-1', sellerSiret: SIRET.slice(0, 9), sellerScheme: '0002' })],
      ['EXTENDED', await embedInvoiceXml(buildCiiXml({ profile: 'EXTENDED', number: 'EXT-1', sellerSiret: SIRET, buyerSiret: CHARITY_SIRET, net: 650 }), { profile: 'EXTENDED', fileName: 'zugferd-invoice.xml' })],
    ];
    for (const [profile, pdf] of samples) {
      const { cookie, invoiceId } = await technicianWithInvoice();
      const inspected = invoiceInspectionSchema.parse((await send(cookie, invoiceId, 'inspect', pdf)).json());
      expect(inspected, profile).toMatchObject({ accepted: true, eInvoice: { profile } });
      const response = await send(cookie, invoiceId, 'submit', pdf, { reference: inspected.suggestedReference!, amount_certified: '650' });
      expect(response.statusCode, `${profile}: ${response.body}`).toBe(201);
    }
  }, 30_000);

  it('refuses a wrong amount, seller, buyer, a credit note, another currency, and says what differs', async () => {
    const cases: [string, Buffer, string][] = [
      ['amount', await facturX({ number: 'A-1', net: 700 }), 'Montant de la facture : 700,00 € ; montant validé : 650,00 €'],
      ['amount (VAT on top)', await facturX({ number: 'A-2', vatRate: 20 }), 'Montant de la facture : 780,00 € ; montant validé : 650,00 €'],
      ['seller', await facturX({ number: 'S-1', sellerSiret: '44306184100047' }), 'Vendeur de la facture : SIRET 443 061 841 00047 ; SIRET de votre profil : 812 345 678 00012'],
      ['seller SIREN', await facturX({ number: 'S-2', sellerSiret: '443061841', sellerScheme: '0002' }), 'Vendeur de la facture : SIREN 443 061 841 ; SIRET de votre profil : 812 345 678 00012'],
      ['no seller id', await facturX({ number: 'S-3', sellerSiret: null }), 'La facture n’indique pas le SIRET (ou SIREN) du vendeur'],
      ['buyer', await facturX({ number: 'B-1', buyerSiret: '55208131766522', buyerName: 'Autre Client SA' }), 'Acheteur de la facture : Autre Client SA, SIRET 552 081 317 66522 ; l’association : SIRET 732 829 320 00074'],
      ['no buyer id', await facturX({ number: 'B-2', buyerSiret: null }), 'La facture n’indique pas le SIRET de l’acheteur : l’association, SIRET 732 829 320 00074'],
      ['credit note', await facturX({ number: 'C-1', typeCode: '381' }), 'Ce document est un avoir (code 381), pas une facture à payer'],
      ['currency', await facturX({ number: 'D-1', currency: 'USD' }), 'Devise de la facture : USD ; devise attendue : EUR'],
    ];
    const { cookie, invoiceId } = await technicianWithInvoice();
    for (const [label, pdf, message] of cases) {
      const inspected = invoiceInspectionSchema.parse((await nothingWritten(() => send(cookie, invoiceId, 'inspect', pdf))).json());
      expect(inspected.accepted, label).toBe(false);
      expect(inspected.checks.filter((c) => !c.ok).map((c) => c.message), label).toContain(message);
      const number = inspected.eInvoice!.invoiceNumber;
      const response = await nothingWritten(() => send(cookie, invoiceId, 'submit', pdf, { reference: number, amount_certified: '650' }));
      expect(response.statusCode, label).toBe(400);
      expect(response.json(), label).toMatchObject({ code: 'EINVOICE_MISMATCH', fields: { invoice_file: expect.stringContaining(message) } });
      expect(response.json().message, label).toContain(message);
    }
    const [invoice] = await ctx.db.select({ status: invoices.status }).from(invoices).where(eq(invoices.id, invoiceId));
    expect(invoice!.status).toBe('Facture à soumettre');
  }, 60_000);

  it('refuses an invoice number the technician already submitted, and a reference that is not the invoice number', async () => {
    const first = await technicianWithInvoice();
    const pdf = await facturX({ number: 'FAC-2026-007' });
    expect((await send(first.cookie, first.invoiceId, 'submit', pdf, { reference: 'FAC-2026-007', amount_certified: '650' })).statusCode).toBe(201);

    const { invoiceId: second } = await invoiceToSubmit(ctx.db, { technicianId: first.technicianId, validatedCents: 65_000 });
    const same = await facturX({ number: 'fac-2026-007' });
    const duplicate = await nothingWritten(() => send(first.cookie, second, 'submit', same, { reference: 'fac-2026-007', amount_certified: '650' }));
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json().message).toMatch(/^Vous avez déjà envoyé une facture n° fac-2026-007 \(mission « Lot .+ »\) : chaque facture doit avoir son propre numéro$/);
    // The same number with a plain PDF (typed reference) is refused too.
    const plain = await nothingWritten(() => send(first.cookie, second, 'submit', Buffer.from(samplePdfBytes), { reference: 'FAC-2026-007', amount_certified: '650' }));
    expect(plain.json()).toMatchObject({ code: 'EINVOICE_REQUIRED', message: expect.stringContaining('Vous avez déjà envoyé une facture n° FAC-2026-007') });

    const eight = await facturX({ number: 'FAC-2026-008' });
    const mismatch = await nothingWritten(() => send(first.cookie, second, 'submit', eight, { reference: 'FAC-8', amount_certified: '650' }));
    expect(mismatch.json()).toMatchObject({ code: 'VALIDATION_ERROR', fields: { reference: 'Référence saisie : FAC-8 ; numéro de la facture électronique : FAC-2026-008' } });

    // Another technician may use the same number: numbers are per seller.
    const other = await technicianWithInvoice();
    expect((await send(other.cookie, other.invoiceId, 'submit', pdf, { reference: 'FAC-2026-007', amount_certified: '650' })).statusCode).toBe(201);
  }, 30_000);

  it('lets the same invoice be sent again after a refused payment', async () => {
    const { cookie, invoiceId } = await technicianWithInvoice();
    const pdf = await facturX({ number: 'RE-1' });
    expect((await send(cookie, invoiceId, 'submit', pdf, { reference: 'RE-1', amount_certified: '650' })).statusCode).toBe(201);
    const refused = await as(ctx.app, adminCookie)({ method: 'PATCH', url: '/api/transfers/status', payload: { invoiceId, status: 'Refus' } });
    expect(refused.statusCode).toBe(200);
    expect((await send(cookie, invoiceId, 'submit', pdf, { reference: 'RE-1', amount_certified: '650' })).statusCode).toBe(201);
    expect(await ctx.db.select({ id: transfers.id }).from(transfers).where(eq(transfers.invoiceId, invoiceId))).toHaveLength(2);
  }, 30_000);

  it('accepts a plain PDF flagged « PDF simple » until the legal date', async () => {
    const { cookie, invoiceId } = await technicianWithInvoice();
    const inspected = invoiceInspectionSchema.parse((await send(cookie, invoiceId, 'inspect', await samplePdf())).json());
    expect(inspected).toMatchObject({ format: 'pdf', accepted: true, eInvoice: null, suggestedReference: null, checks: [{ key: 'required', ok: true, message: 'PDF simple accepté jusqu’au 31/08/2027' }] });
    expect((await send(cookie, invoiceId, 'submit', await samplePdf(), { reference: 'PLAIN-1', amount_certified: '650' })).statusCode).toBe(201);
    const list = await as(ctx.app, adminCookie)({ method: 'GET', url: '/api/invoices?search=PLAIN-1' });
    expect(adminInvoiceSchema.array().parse(list.json())[0]).toMatchObject({ fileFormat: 'pdf', eInvoice: null });
  });

  it('refuses a plain PDF from EINVOICE_REQUIRED_FROM on, still accepts Factur-X, and skips the buyer check without CHARITY_SIRET', async () => {
    const strict = await createTestContext({ EINVOICE_REQUIRED_FROM: '2020-01-01' });
    try {
      const { technician, user } = await createTechnician(strict.db, { iban: IBAN, siret: SIRET });
      const cookie = await login(strict.app, user.email);
      const { invoiceId } = await invoiceToSubmit(strict.db, { technicianId: technician.id, validatedCents: 65_000 });
      const body = multipart({ reference: 'P-1', amount_certified: '650' }, { name: 'f.pdf', content: await samplePdf() });
      const plain = await as(strict.app, cookie)({ method: 'POST', url: `/api/invoice/${invoiceId}/submit`, payload: body.payload, headers: body.headers });
      expect(plain.statusCode).toBe(400);
      expect(plain.json()).toMatchObject({
        code: 'EINVOICE_REQUIRED',
        message: 'Depuis le 01/01/2020, les factures doivent être électroniques (Factur-X) : ce PDF ne contient pas de données de facture',
      });
      const pdf = await embedInvoiceXml(buildCiiXml({ number: 'OK-1', sellerSiret: SIRET, buyerSiret: '55208131766522', net: 650 }));
      const inspect = multipart({}, { name: 'f.pdf', content: pdf });
      const inspected = invoiceInspectionSchema.parse(
        (await as(strict.app, cookie)({ method: 'POST', url: `/api/invoice/${invoiceId}/inspect`, payload: inspect.payload, headers: inspect.headers })).json(),
      );
      expect(inspected.checks.find((c) => c.key === 'buyer')).toEqual({ key: 'buyer', ok: true, message: 'Acheteur non vérifié : le SIRET de l’association (CHARITY_SIRET) n’est pas configuré' });
      const submit = multipart({ reference: 'OK-1', amount_certified: '650' }, { name: 'f.pdf', content: pdf });
      expect((await as(strict.app, cookie)({ method: 'POST', url: `/api/invoice/${invoiceId}/submit`, payload: submit.payload, headers: submit.headers })).statusCode).toBe(201);
    } finally {
      await strict.close();
    }
  }, 60_000);

  it('asks for a SIRET on the profile, refuses other attachments and unreadable e-invoices', async () => {
    const noSiret = await technicianWithInvoice(65_000, null);
    const n1 = await facturX({ number: 'N-1' });
    const response = await nothingWritten(() => send(noSiret.cookie, noSiret.invoiceId, 'submit', n1, { reference: 'N-1', amount_certified: '650' }));
    expect(response.json().message).toBe('Renseignez votre SIRET dans « Mon compte » : la facture est émise par le SIRET 812 345 678 00012');

    const { cookie, invoiceId } = await technicianWithInvoice();
    const { PDFDocument } = await import('@cantoo/pdf-lib');
    const withExtra = await PDFDocument.load(await facturX({ number: 'X-1' }));
    await withExtra.attach(Buffer.from('MZ'), 'outil.exe', { mimeType: 'application/octet-stream' });
    const extraPdf = Buffer.from(await withExtra.save());
    const extra = await nothingWritten(() => send(cookie, invoiceId, 'submit', extraPdf, { reference: 'X-1', amount_certified: '650' }));
    expect(extra.json()).toMatchObject({ code: 'INVALID_FILE', message: 'Ce PDF contient des fichiers joints (outil.exe) : seule la facture électronique (factur-x.xml) est acceptée' });

    const brokenPdf = await embedInvoiceXml('<rsm:CrossIndustryInvoice>');
    const broken = await nothingWritten(() => send(cookie, invoiceId, 'inspect', brokenPdf));
    expect(broken.json()).toMatchObject({ code: 'INVALID_FILE', message: 'Le fichier factur-x.xml joint à la facture est illisible : le XML est mal formé' });

    const notPdf = await send(cookie, invoiceId, 'inspect', Buffer.from('Bonjour, voici ma facture.\n'.repeat(5)));
    expect(notPdf.json()).toMatchObject({ code: 'INVALID_FILE', message: 'Seuls les fichiers PDF sont autorisés' });
    const empty = await as(ctx.app, cookie)({ method: 'POST', url: `/api/invoice/${invoiceId}/inspect`, payload: {} });
    expect(empty.statusCode).toBe(400);
  }, 30_000);

  it('keeps inspection to the invoice’s own technician, on an invoice waiting for submission', async () => {
    const a = await technicianWithInvoice();
    const b = await technicianWithInvoice();
    const pdf = await facturX({ number: 'OWN-1' });
    expect((await send(b.cookie, a.invoiceId, 'inspect', pdf)).statusCode).toBe(404);
    expect((await send(b.cookie, a.invoiceId, 'submit', pdf, { reference: 'OWN-1', amount_certified: '650' })).statusCode).toBe(404);
    const body = multipart({}, { name: 'f.pdf', content: pdf });
    expect((await as(ctx.app, adminCookie)({ method: 'POST', url: `/api/invoice/${a.invoiceId}/inspect`, payload: body.payload, headers: body.headers })).statusCode).toBe(403);
    await ctx.db.update(invoices).set({ status: 'Mission à terminer' }).where(eq(invoices.id, a.invoiceId));
    expect((await send(a.cookie, a.invoiceId, 'inspect', pdf)).json()).toMatchObject({ code: 'INVALID_TRANSITION', message: 'La mission doit être terminée avant de soumettre la facture' });
  }, 30_000);
});

let samplePdfBytes: Buffer;
beforeAll(async () => {
  samplePdfBytes = await samplePdf();
});
