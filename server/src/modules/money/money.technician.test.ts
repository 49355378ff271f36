import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { errorResponseSchema } from '@maillon/common/schemas/errors';
import {
  revenueSummarySchema,
  submitInvoiceResponseSchema,
  technicianInvoiceSchema,
  technicianTransferSchema,
} from '@maillon/common/schemas/money';
import { auditLog, invoices, technicians, transfers } from '../../db/schema';
import { as, countRows, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';
import { readPdf } from '../../../test/pdf';
import {
  IBAN,
  JAVASCRIPT_PDF,
  PNG_BYTES,
  filesIn,
  finishedLot,
  invoiceToSubmit,
  multipart,
  samplePdf,
} from './money.test-helpers';

let ctx: TestContext;
let adminCookie: string;
let uploadsDir: string;

beforeAll(async () => {
  ctx = await createTestContext();
  const admin = await createAdmin(ctx.db);
  adminCookie = await login(ctx.app, admin.email);
  uploadsDir = path.join(ctx.dataDir, 'uploads');
});
afterAll(async () => {
  await ctx.close();
});

async function technicianSession(overrides: Parameters<typeof createTechnician>[1] = { iban: IBAN }) {
  const created = await createTechnician(ctx.db, overrides);
  return { ...created, cookie: await login(ctx.app, created.user.email) };
}

function submit(cookie: string | null, invoiceId: string, fields: Record<string, string>, file?: Parameters<typeof multipart>[1]) {
  const body = multipart(fields, file);
  return as(ctx.app, cookie)({ method: 'POST', url: `/api/invoice/${invoiceId}/submit`, payload: body.payload, headers: body.headers });
}

async function snapshot() {
  return {
    transfers: await countRows(ctx.db, 'transfers'),
    files: await countRows(ctx.db, 'invoices_files'),
    stored: await countRows(ctx.db, 'stored_files'),
    audit: await countRows(ctx.db, 'audit_log'),
    onDisk: filesIn(uploadsDir).length,
  };
}

describe('technician money lifecycle', () => {
  it('7 of 10 devices on a 1 000 € lot → 700,00 €; submit → pay → receipt; totals move at each step', async () => {
    const tech = await technicianSession({ iban: IBAN, companyName: 'Martin Maintenance', siret: '81234567800012' });
    const { invoiceId } = await finishedLot(ctx.db, { technicianId: tech.technician.id, priceCents: 100_000, total: 10, done: 7 });
    const api = as(ctx.app, tech.cookie);

    const list = await api({ method: 'GET', url: `/api/technician/${tech.technician.id}/invoices` });
    expect(list.statusCode).toBe(200);
    expect(list.headers['x-total-count']).toBe('1');
    const [invoice] = technicianInvoiceSchema.array().parse(list.json());
    expect(invoice).toMatchObject({ id: invoiceId, status: 'Facture à soumettre', validatedAmount: 700, initialAmount: 1000, progression: '7/10', reference: 'Néant' });

    const summaryUrl = `/api/technician/${tech.technician.id}/revenue-summary`;
    expect(revenueSummarySchema.parse((await api({ method: 'GET', url: summaryUrl })).json())).toEqual({
      activeMissionGains: 700,
      pendingTransfers: 0,
      paymentHistory: 0,
    });

    const pdf = await samplePdf();
    const submitted = await submit(tech.cookie, invoiceId, { reference: 'FAC-2026-100', amount_certified: '700' }, { name: 'facture.pdf', content: pdf });
    expect(submitted.statusCode).toBe(201);
    const body = submitInvoiceResponseSchema.parse(submitted.json());
    expect(body.invoice).toMatchObject({ status: 'Facture envoyée', reference: 'FAC-2026-100' });
    expect(body.transfer).toMatchObject({ status: 'Enregistré', amount: 700, invoiceRef: 'FAC-2026-100', transferRef: 'En attente', bankAccountLast4: '0189' });
    expect(submitted.body).not.toContain('FR76');

    expect(revenueSummarySchema.parse((await api({ method: 'GET', url: summaryUrl })).json())).toEqual({
      activeMissionGains: 0,
      pendingTransfers: 700,
      paymentHistory: 0,
    });
    const transferList = await api({ method: 'GET', url: `/api/technician/${tech.technician.id}/transfers` });
    expect(transferList.headers['x-total-count']).toBe('1');
    expect(technicianTransferSchema.array().parse(transferList.json())[0]).toMatchObject({ status: 'Enregistré', transferRef: 'En attente' });
    // A page past the end holds no row to carry the total: it is counted on its own, for both lists.
    for (const list of ['invoices', 'transfers']) {
      const beyond = await api({ method: 'GET', url: `/api/technician/${tech.technician.id}/${list}?limit=1&offset=3` });
      expect(beyond.statusCode).toBe(200);
      expect(beyond.json()).toEqual([]);
      expect(beyond.headers['x-total-count']).toBe('1');
    }

    // The receipt exists only once the transfer is Effectué.
    const early = await api({ method: 'GET', url: `/api/invoices/${invoiceId}/fiscal-receipt` });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('Le reçu fiscal est disponible une fois le virement effectué');

    const paid = await as(ctx.app, adminCookie)({ method: 'PATCH', url: '/api/transfers/status', payload: { invoiceId, status: 'Effectué' } });
    expect(paid.statusCode).toBe(200);
    const transferRef = paid.json().latestTransfer.transferRef as string;
    expect(transferRef).toMatch(/^VIR-\d{8}-[0-9A-F]{6}$/);

    expect(revenueSummarySchema.parse((await api({ method: 'GET', url: summaryUrl })).json())).toEqual({
      activeMissionGains: 0,
      pendingTransfers: 0,
      paymentHistory: 700,
    });
    const [after] = await ctx.db.select({ earnings: technicians.totalEarningsCents }).from(technicians).where(eq(technicians.id, tech.technician.id));
    expect(after!.earnings).toBe(70_000);

    const receipt = await api({ method: 'GET', url: `/api/invoices/${invoiceId}/fiscal-receipt` });
    expect(receipt.statusCode).toBe(200);
    expect(receipt.headers['content-type']).toBe('application/pdf');
    expect(receipt.headers['content-disposition']).toMatch(/^inline; filename="recu-fiscal-VIR-/);
    expect(receipt.headers['x-content-type-options']).toBe('nosniff');
    expect(receipt.headers['content-security-policy']).toBe("frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
    const bytes = receipt.rawPayload;
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const doc = await readPdf(bytes);
    expect(doc.pageCount).toBe(1);
    expect(doc.info.Title).toBe(`Reçu fiscal ${transferRef}`);
    expect(doc.info.Author).toBe('Association Maillon pour la chaîne de survie');
    const text = doc.pages.join('\n');
    for (const expected of ['Association Maillon pour la chaîne de survie', 'Jeanne Martin', 'Martin Maintenance', '81234567800012', 'FAC-2026-100', transferRef, '700,00\u00a0€', 'montants HT']) {
      expect(text).toContain(expected);
    }

    // The admin reads the same receipt.
    const adminReceipt = await as(ctx.app, adminCookie)({ method: 'GET', url: `/api/invoices/${invoiceId}/fiscal-receipt` });
    expect(adminReceipt.statusCode).toBe(200);
  });

  it('refused then resubmitted: the invoice returns to "Facture à soumettre" and a new transfer is created', async () => {
    const tech = await technicianSession();
    const { invoiceId } = await invoiceToSubmit(ctx.db, { technicianId: tech.technician.id, validatedCents: 48_000 });
    const pdf = await samplePdf();
    expect((await submit(tech.cookie, invoiceId, { reference: 'A-1', amount_certified: '480' }, { name: 'a.pdf', content: pdf })).statusCode).toBe(201);
    const refused = await as(ctx.app, adminCookie)({ method: 'PATCH', url: '/api/transfers/status', payload: { invoiceId, status: 'Refus' } });
    expect(refused.statusCode).toBe(200);
    expect(refused.json()).toMatchObject({ status: 'Facture à soumettre', latestTransfer: { status: 'Refus' } });

    const again = await submit(tech.cookie, invoiceId, { reference: 'A-2', amount_certified: '480,00' }, { name: 'b.pdf', content: pdf });
    expect(again.statusCode).toBe(201);
    const rows = await ctx.db.select({ status: transfers.status, ref: transfers.invoiceRef }).from(transfers).where(eq(transfers.invoiceId, invoiceId));
    expect(rows.map((r) => `${r.status}:${r.ref}`).sort()).toEqual(['Enregistré:A-2', 'Refus:A-1']);
    const list = await as(ctx.app, tech.cookie)({ method: 'GET', url: `/api/technician/${tech.technician.id}/transfers` });
    expect(list.json().map((t: { status: string }) => t.status)).toEqual(['Enregistré', 'Refus']);
  });

  it('a retried submission answers the same result; a different second one answers 409; never two transfers', async () => {
    const tech = await technicianSession();
    const { invoiceId } = await invoiceToSubmit(ctx.db, { technicianId: tech.technician.id });
    const pdf = await samplePdf();
    const fields = { reference: 'R-1', amount_certified: '480' };
    expect((await submit(tech.cookie, invoiceId, fields, { name: 'f.pdf', content: pdf })).statusCode).toBe(201);
    const before = await snapshot();
    const retry = await submit(tech.cookie, invoiceId, fields, { name: 'f.pdf', content: pdf });
    expect(retry.statusCode).toBe(200);
    expect(retry.json().transfer.status).toBe('Enregistré');
    const other = await submit(tech.cookie, invoiceId, { reference: 'R-2', amount_certified: '480' }, { name: 'f.pdf', content: pdf });
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ code: 'INVALID_TRANSITION', message: 'Cette facture a déjà été soumise' });
    expect(await snapshot()).toEqual(before);
  });

  it('two simultaneous submissions create one transfer and one stored file', async () => {
    const tech = await technicianSession();
    const { invoiceId } = await invoiceToSubmit(ctx.db, { technicianId: tech.technician.id });
    const pdf = await samplePdf();
    const before = await snapshot();
    const results = await Promise.all([
      submit(tech.cookie, invoiceId, { reference: 'X-1', amount_certified: '480' }, { name: 'x.pdf', content: pdf }),
      submit(tech.cookie, invoiceId, { reference: 'X-2', amount_certified: '480' }, { name: 'y.pdf', content: pdf }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const after = await snapshot();
    expect(after.transfers - before.transfers).toBe(1);
    expect(after.files - before.files).toBe(1);
    expect(after.stored - before.stored).toBe(1);
    expect(after.onDisk - before.onDisk).toBe(1);
  });

  it('refuses bad input with the spec messages and writes nothing', async () => {
    const tech = await technicianSession();
    const { invoiceId } = await invoiceToSubmit(ctx.db, { technicianId: tech.technician.id });
    const pdf = await samplePdf();
    const before = await snapshot();
    const cases: [Record<string, string>, Parameters<typeof multipart>[1] | undefined, number, string][] = [
      [{ reference: '  ', amount_certified: '480' }, { name: 'f.pdf', content: pdf }, 400, 'Veuillez entrer une référence'],
      [{ amount_certified: '480' }, { name: 'f.pdf', content: pdf }, 400, 'Veuillez entrer une référence'],
      [{ reference: 'R', amount_certified: '480' }, undefined, 400, 'Veuillez sélectionner un fichier PDF'],
      [{ reference: 'R', amount_certified: '480' }, { name: 'f.pdf', content: Buffer.alloc(0) }, 400, 'Veuillez sélectionner un fichier PDF'],
      [{ reference: 'R' }, { name: 'f.pdf', content: pdf }, 400, 'Veuillez certifier le montant de la facture'],
      [{ reference: 'R', amount_certified: '' }, { name: 'f.pdf', content: pdf }, 400, 'Veuillez certifier le montant de la facture'],
      [{ reference: 'R', amount_certified: '479.99' }, { name: 'f.pdf', content: pdf }, 400, 'Le montant certifié doit être égal au montant validé'],
      [{ reference: 'R', amount_certified: '480' }, { name: 'image.pdf', content: PNG_BYTES, type: 'application/pdf' }, 400, 'Seuls les fichiers PDF sont autorisés'],
      [{ reference: 'R', amount_certified: '480' }, { name: 'notes.pdf', content: Buffer.from('Bonjour, voici ma facture.\n'.repeat(5)) }, 400, 'Seuls les fichiers PDF sont autorisés'],
      [{ reference: 'R', amount_certified: '480' }, { name: 'cut.pdf', content: pdf.subarray(0, Math.floor(pdf.length / 2)) }, 400, 'Seuls les fichiers PDF sont autorisés'],
      [{ reference: 'R', amount_certified: '480' }, { name: 'js.pdf', content: JAVASCRIPT_PDF }, 400, 'Ce PDF contient du contenu actif (scripts) et ne peut pas être accepté'],
    ];
    for (const [fields, file, status, message] of cases) {
      const response = await submit(tech.cookie, invoiceId, fields, file);
      expect(response.statusCode, message).toBe(status);
      expect(errorResponseSchema.parse(response.json()).message).toBe(message);
    }
    const json = await as(ctx.app, tech.cookie)({ method: 'POST', url: `/api/invoice/${invoiceId}/submit`, payload: { reference: 'R', amount_certified: 480 } });
    expect(json.statusCode).toBe(400);
    expect(json.json().message).toBe('Formulaire multipart attendu');
    expect(await snapshot()).toEqual(before);
    const [invoice] = await ctx.db.select({ status: invoices.status, reference: invoices.reference }).from(invoices).where(eq(invoices.id, invoiceId));
    expect(invoice).toEqual({ status: 'Facture à soumettre', reference: 'Néant' });
  });

  it('refuses a submission before the end of the mission, or without an IBAN (409 / 400, nothing written)', async () => {
    const tech = await technicianSession({ iban: null });
    const { invoiceId } = await invoiceToSubmit(ctx.db, { technicianId: tech.technician.id });
    const running = await invoiceToSubmit(ctx.db, { technicianId: tech.technician.id });
    await ctx.db.update(invoices).set({ status: 'Mission à terminer' }).where(eq(invoices.id, running.invoiceId));
    const pdf = await samplePdf();
    const before = await snapshot();
    const noIban = await submit(tech.cookie, invoiceId, { reference: 'R', amount_certified: '480' }, { name: 'f.pdf', content: pdf });
    expect(noIban.statusCode).toBe(400);
    expect(noIban.json().message).toBe('Veuillez renseigner votre IBAN dans « Mon compte » avant de soumettre une facture');
    const early = await submit(tech.cookie, running.invoiceId, { reference: 'R', amount_certified: '480' }, { name: 'f.pdf', content: pdf });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('La mission doit être terminée avant de soumettre la facture');
    expect(await snapshot()).toEqual(before);
  });

  it('lists written by PostgreSQL equal the submission answers key for key, with euros, dates, text and pages as Node writes them', async () => {
    const tech = await technicianSession();
    const api = as(ctx.app, tech.cookie);
    const { invoiceId } = await invoiceToSubmit(ctx.db, { technicianId: tech.technician.id, validatedCents: 123_456_789, priceCents: 1_050 });
    const submitted = await submit(tech.cookie, invoiceId, { reference: 'FAC-2026-201', amount_certified: '1234567.89' }, { name: 'facture.pdf', content: await samplePdf() });
    expect(submitted.statusCode).toBe(201);
    const answer = submitInvoiceResponseSchema.parse(submitted.json());

    // The same invoice and transfer as the submission answered them (Node's mappers), key for key and in order.
    const [listed] = technicianInvoiceSchema.strict().array().parse((await api({ method: 'GET', url: `/api/technician/${tech.technician.id}/invoices` })).json());
    expect(listed).toEqual(answer.invoice);
    expect(Object.keys(listed!)).toEqual(Object.keys(answer.invoice));
    expect(listed).toMatchObject({ validatedAmount: 1_234_567.89, batchPrice: 10.5, initialAmount: 10.5, paidDate: null });
    const [transfer] = technicianTransferSchema.strict().array().parse((await api({ method: 'GET', url: `/api/technician/${tech.technician.id}/transfers` })).json());
    expect(transfer).toEqual(answer.transfer);
    expect(Object.keys(transfer!)).toEqual(Object.keys(answer.transfer));

    // Values JSON must escape, a cent, dates with milliseconds, a transfer without its invoice and a blank bank reference.
    const title = 'Lot « Gare » "quai 2"\nligne\ttab \\ 🚑';
    const [odd] = await ctx.db
      .insert(invoices)
      .values({
        technicianId: tech.technician.id,
        missionTitle: title,
        description: null,
        status: 'Terminé',
        amountCents: 1,
        validatedAmountCents: 0,
        invoiceDate: new Date('2026-03-01T08:09:10.123Z'),
        paidDate: new Date('2026-03-02T23:59:59.999Z'),
        createdAt: new Date(Date.now() + 60_000),
      })
      .returning({ id: invoices.id });
    await ctx.db.insert(transfers).values({ technicianId: tech.technician.id, invoiceId: null, status: 'Refus', invoiceRef: 'SANS-FACTURE', transferRef: '', amountCents: 99, createdAt: new Date(Date.now() + 60_000) });
    const firstPage = await api({ method: 'GET', url: `/api/technician/${tech.technician.id}/invoices?limit=1` });
    expect(firstPage.headers['x-total-count']).toBe('2');
    expect(technicianInvoiceSchema.strict().array().parse(firstPage.json())).toEqual([
      {
        id: odd!.id,
        batchId: null,
        status: 'Terminé',
        missionTitle: title,
        description: null,
        reference: 'Néant',
        progression: '0/0',
        initialAmount: 0,
        amount: 0.01,
        validatedAmount: 0,
        batchPrice: 0,
        invoiceDate: '2026-03-01T08:09:10.123Z',
        dueDate: null,
        paidDate: '2026-03-02T23:59:59.999Z',
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      },
    ]);
    const secondPage = await api({ method: 'GET', url: `/api/technician/${tech.technician.id}/invoices?limit=1&offset=1` });
    expect(secondPage.headers['x-total-count']).toBe('2');
    expect(secondPage.json()).toEqual([answer.invoice]);
    const transfersPage = technicianTransferSchema.strict().array().parse((await api({ method: 'GET', url: `/api/technician/${tech.technician.id}/transfers?limit=5` })).json());
    expect(transfersPage.map((t) => [t.invoiceRef, t.transferRef, t.missionTitle, t.amount])).toEqual([
      ['SANS-FACTURE', 'En attente', null, 0.99],
      ['FAC-2026-201', 'En attente', answer.invoice.missionTitle, 1_234_567.89],
    ]);
  });

  it('lists defaults and an empty state for a new technician', async () => {
    const tech = await technicianSession();
    const api = as(ctx.app, tech.cookie);
    const invoicesList = await api({ method: 'GET', url: `/api/technician/${tech.technician.id}/invoices` });
    expect(invoicesList.json()).toEqual([]);
    expect(invoicesList.headers['x-total-count']).toBe('0');
    expect((await api({ method: 'GET', url: `/api/technician/${tech.technician.id}/transfers` })).json()).toEqual([]);
    expect((await api({ method: 'GET', url: `/api/technician/${tech.technician.id}/revenue-summary` })).json()).toEqual({
      activeMissionGains: 0,
      pendingTransfers: 0,
      paymentHistory: 0,
    });
    const bad = await api({ method: 'GET', url: `/api/technician/${tech.technician.id}/invoices?limit=0` });
    expect(bad.statusCode).toBe(400);
  });
});

describe('technician money access', () => {
  it('technician B gets 404 on A’s invoices, transfers, totals, submission, receipt and file; anonymous gets 401', async () => {
    const a = await technicianSession();
    const b = await technicianSession();
    const { invoiceId } = await invoiceToSubmit(ctx.db, { technicianId: a.technician.id });
    const pdf = await samplePdf();
    const submitted = await submit(a.cookie, invoiceId, { reference: 'A-1', amount_certified: '480' }, { name: 'f.pdf', content: pdf });
    expect(submitted.statusCode).toBe(201);
    await as(ctx.app, adminCookie)({ method: 'PATCH', url: '/api/transfers/status', payload: { invoiceId, status: 'Effectué' } });
    const files = await as(ctx.app, adminCookie)({ method: 'GET', url: `/api/invoice-files?invoiceId=${invoiceId}` });
    const fileId = files.json()[0].fileId as string;

    const asB = as(ctx.app, b.cookie);
    for (const url of [
      `/api/technician/${a.technician.id}/invoices`,
      `/api/technician/${a.technician.id}/transfers`,
      `/api/technician/${a.technician.id}/revenue-summary`,
      `/api/invoices/${invoiceId}/fiscal-receipt`,
      `/api/files/${fileId}`,
    ]) {
      const response = await asB({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
    }
    // A's own file is readable by A, byte for byte.
    const own = await as(ctx.app, a.cookie)({ method: 'GET', url: `/api/files/${fileId}` });
    expect(own.statusCode).toBe(200);
    expect(Buffer.compare(own.rawPayload, pdf)).toBe(0);

    const b2 = await invoiceToSubmit(ctx.db, { technicianId: a.technician.id });
    const before = await snapshot();
    const cross = await submit(b.cookie, b2.invoiceId, { reference: 'B', amount_certified: '480' }, { name: 'f.pdf', content: pdf });
    expect(cross.statusCode).toBe(404);
    expect(cross.json().code).toBe('NOT_FOUND');
    expect(await snapshot()).toEqual(before);

    const anonymous = as(ctx.app, null);
    for (const url of [`/api/technician/${a.technician.id}/invoices`, `/api/technician/${a.technician.id}/transfers`, `/api/technician/${a.technician.id}/revenue-summary`, `/api/invoices/${invoiceId}/fiscal-receipt`]) {
      expect((await anonymous({ method: 'GET', url })).statusCode, url).toBe(401);
    }
    expect((await submit(null, b2.invoiceId, { reference: 'B', amount_certified: '480' }, { name: 'f.pdf', content: pdf })).statusCode).toBe(401);
    // The admin does not submit invoices for a technician.
    expect((await submit(adminCookie, b2.invoiceId, { reference: 'B', amount_certified: '480' }, { name: 'f.pdf', content: pdf })).statusCode).toBe(403);
    // The admin reads any technician's lists.
    expect((await as(ctx.app, adminCookie)({ method: 'GET', url: `/api/technician/${a.technician.id}/invoices` })).statusCode).toBe(200);
  });

  it('audits the submission with the technician as actor', async () => {
    const tech = await technicianSession();
    const { invoiceId } = await invoiceToSubmit(ctx.db, { technicianId: tech.technician.id });
    await submit(tech.cookie, invoiceId, { reference: 'AUD-1', amount_certified: '480' }, { name: 'f.pdf', content: await samplePdf() });
    const rows = await ctx.db.select().from(auditLog).where(eq(auditLog.entityId, invoiceId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: 'invoice.submit', actorUserId: tech.user.id });
  });
});
