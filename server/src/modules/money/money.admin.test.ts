import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, sql } from 'drizzle-orm';
import {
  adminInvoiceSchema,
  adminTransferSchema,
  invoiceChipCountsSchema,
  invoiceFileSchema,
  technicianOptionSchema,
} from '@maillon/common/schemas/money';
import { auditLog, invoices, technicians, transfers } from '../../db/schema';
import { checkTechnicianPicker } from '../../../test/technician-picker';
import { as, countRows, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';
import { IBAN, invoiceToSubmit, multipart, samplePdf } from './money.test-helpers';

let ctx: TestContext;
let adminCookie: string;
let adminUserId: string;

beforeAll(async () => {
  ctx = await createTestContext();
  const admin = await createAdmin(ctx.db);
  adminUserId = admin.id;
  adminCookie = await login(ctx.app, admin.email);
});
afterAll(async () => {
  await ctx.close();
});

const asAdmin = () => as(ctx.app, adminCookie);

/** A technician with an invoice already submitted (transfer "Enregistré"). */
async function submittedInvoice({ firstName = 'Jeanne', lastName = 'Martin', validatedCents = 48_000, reference = 'FAC-1' } = {}) {
  const created = await createTechnician(ctx.db, { iban: IBAN, firstName, lastName });
  const cookie = await login(ctx.app, created.user.email);
  const { invoiceId } = await invoiceToSubmit(ctx.db, { technicianId: created.technician.id, validatedCents });
  const body = multipart({ reference, amount_certified: String(validatedCents / 100) }, { name: 'facture.pdf', content: await samplePdf() });
  const response = await as(ctx.app, cookie)({ method: 'POST', url: `/api/invoice/${invoiceId}/submit`, payload: body.payload, headers: body.headers });
  expect(response.statusCode).toBe(201);
  return { invoiceId, technicianId: created.technician.id, cookie };
}

const earnings = async (technicianId: string) =>
  (await ctx.db.select({ cents: technicians.totalEarningsCents }).from(technicians).where(eq(technicians.id, technicianId)))[0]!.cents;

const pay = (invoiceId: string, status: 'Effectué' | 'Refus' = 'Effectué') =>
  asAdmin()({ method: 'PATCH', url: '/api/transfers/status', payload: { invoiceId, status } });

describe('Marquer Payée / Refuser', () => {
  it('pays once: transfer Effectué with date and reference, invoice paidDate, earnings += amount, audited; retries change nothing', async () => {
    const { invoiceId, technicianId } = await submittedInvoice();
    const first = await pay(invoiceId);
    expect(first.statusCode).toBe(200);
    const invoice = adminInvoiceSchema.parse(first.json());
    expect(invoice.displayStatus).toBe('Terminé');
    expect(invoice.latestTransfer).toMatchObject({ status: 'Effectué', amount: 480 });
    expect(invoice.latestTransfer!.transferDate).not.toBeNull();
    expect(invoice.paidDate).not.toBeNull();
    expect(await earnings(technicianId)).toBe(48_000);

    const again = await pay(invoiceId);
    expect(again.statusCode).toBe(200);
    expect(again.json().latestTransfer.transferRef).toBe(invoice.latestTransfer!.transferRef);
    expect(await earnings(technicianId)).toBe(48_000);

    const audits = await ctx.db.select().from(auditLog).where(and(eq(auditLog.action, 'transfer.pay'), eq(auditLog.entityId, invoice.latestTransfer!.id)));
    expect(audits).toHaveLength(1);
    expect(audits[0]!.actorUserId).toBe(adminUserId);

    const refuse = await pay(invoiceId, 'Refus');
    expect(refuse.statusCode).toBe(409);
    expect(refuse.json()).toMatchObject({ code: 'INVALID_TRANSITION', message: 'Ce virement a déjà été effectué' });
  });

  it('50 parallel "Marquer Payée" on one transfer pay once', async () => {
    const { invoiceId, technicianId } = await submittedInvoice({ validatedCents: 70_000 });
    const auditBefore = await countRows(ctx.db, 'audit_log');
    let pending = 50;
    // Under this burst a small PostgreSQL pool may shed requests with 503 + Retry-After; the client retries them.
    for (let round = 0; pending > 0 && round < 10; round += 1) {
      const results = await Promise.all(Array.from({ length: pending }, () => pay(invoiceId)));
      expect(results.filter((r) => r.statusCode !== 200 && r.statusCode !== 503).map((r) => r.body)).toEqual([]);
      pending = results.filter((r) => r.statusCode === 503).length;
    }
    expect(pending).toBe(0);
    expect(await earnings(technicianId)).toBe(70_000);
    const rows = await ctx.db.select({ status: transfers.status }).from(transfers).where(eq(transfers.invoiceId, invoiceId));
    expect(rows).toEqual([{ status: 'Effectué' }]);
    expect((await countRows(ctx.db, 'audit_log')) - auditBefore).toBe(1);
  });

  it('two simultaneous "Marquer Payée" with a "Refuser" in between: exactly one outcome wins', async () => {
    const { invoiceId, technicianId } = await submittedInvoice();
    const results = await Promise.all([pay(invoiceId), pay(invoiceId, 'Refus'), pay(invoiceId)]);
    const [row] = await ctx.db.select({ status: transfers.status }).from(transfers).where(eq(transfers.invoiceId, invoiceId));
    if (row!.status === 'Effectué') {
      expect(await earnings(technicianId)).toBe(48_000);
      expect(results[1]!.statusCode).toBe(409);
    } else {
      expect(row!.status).toBe('Refus');
      expect(await earnings(technicianId)).toBe(0);
      expect(results.filter((r) => r.statusCode === 409)).toHaveLength(2);
    }
  });

  it('refuses: transfer Refus, invoice back to "Facture à soumettre"; a second refusal is idempotent', async () => {
    const { invoiceId, technicianId } = await submittedInvoice();
    const refused = await pay(invoiceId, 'Refus');
    expect(refused.statusCode).toBe(200);
    expect(adminInvoiceSchema.parse(refused.json())).toMatchObject({ status: 'Facture à soumettre', displayStatus: 'Facture à soumettre', latestTransfer: { status: 'Refus' } });
    const again = await pay(invoiceId, 'Refus');
    expect(again.statusCode).toBe(200);
    const payNow = await pay(invoiceId);
    expect(payNow.statusCode).toBe(409);
    expect(payNow.json().message).toBe('Aucun virement en attente pour cette facture');
    expect(await earnings(technicianId)).toBe(0);
    const transferId = refused.json().latestTransfer.id as string;
    expect(await ctx.db.select().from(auditLog).where(and(eq(auditLog.action, 'transfer.refuse'), eq(auditLog.entityId, transferId)))).toHaveLength(1);
  });

  it('answers 404 for an unknown invoice, 409 without a transfer and 400 for a bad body, changing nothing', async () => {
    const { invoiceId } = await invoiceToSubmit(ctx.db);
    const before = await countRows(ctx.db, 'audit_log');
    const unknown = await pay('00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Facture introuvable');
    const none = await pay(invoiceId);
    expect(none.statusCode).toBe(409);
    const bad = await asAdmin()({ method: 'PATCH', url: '/api/transfers/status', payload: { invoiceId, status: 'Payée' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Statut invalide');
    const missing = await asAdmin()({ method: 'PATCH', url: '/api/transfers/status', payload: { status: 'Effectué' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Facture requise');
    expect(await countRows(ctx.db, 'audit_log')).toBe(before);
  });
});

describe('Archiver and edit', () => {
  it('archives a paid invoice (idempotent), refuses while the mission runs or a transfer waits', async () => {
    const { invoiceId } = await submittedInvoice();
    const waiting = await asAdmin()({ method: 'PATCH', url: `/api/invoices/${invoiceId}/status`, payload: { status: 'Terminé' } });
    expect(waiting.statusCode).toBe(409);
    expect(waiting.json().message).toBe('Un virement est en attente : marquez la facture payée ou refusez le paiement avant de l’archiver');
    await pay(invoiceId);
    const archived = await asAdmin()({ method: 'PATCH', url: `/api/invoices/${invoiceId}/status`, payload: { status: 'Terminé' } });
    expect(archived.statusCode).toBe(200);
    expect(archived.json()).toMatchObject({ status: 'Terminé', displayStatus: 'Terminé' });
    const again = await asAdmin()({ method: 'PATCH', url: `/api/invoices/${invoiceId}/status`, payload: { status: 'Terminé' } });
    expect(again.statusCode).toBe(200);
    expect(await ctx.db.select().from(auditLog).where(and(eq(auditLog.action, 'invoice.archive'), eq(auditLog.entityId, invoiceId)))).toHaveLength(1);

    const running = await invoiceToSubmit(ctx.db);
    await ctx.db.update(invoices).set({ status: 'Mission à terminer' }).where(eq(invoices.id, running.invoiceId));
    const refused = await asAdmin()({ method: 'PATCH', url: `/api/invoices/${running.invoiceId}/status`, payload: { status: 'Terminé' } });
    expect(refused.statusCode).toBe(409);
    const bad = await asAdmin()({ method: 'PATCH', url: `/api/invoices/${running.invoiceId}/status`, payload: { status: 'Facture envoyée' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Statut invalide');
  });

  it('edits description, reference and dates; validates them', async () => {
    const { invoiceId } = await invoiceToSubmit(ctx.db);
    const edited = await asAdmin()({
      method: 'PUT',
      url: `/api/invoices/${invoiceId}`,
      payload: { description: 'Maintenance des écoles', reference: 'FAC-EDIT', invoiceDate: '2026-03-02', dueDate: null },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ description: 'Maintenance des écoles', reference: 'FAC-EDIT', dueDate: null });
    expect(edited.json().invoiceDate).toMatch(/^2026-03-02T/);
    expect(await ctx.db.select().from(auditLog).where(and(eq(auditLog.action, 'invoice.update'), eq(auditLog.entityId, invoiceId)))).toHaveLength(1);

    const badDate = await asAdmin()({ method: 'PUT', url: `/api/invoices/${invoiceId}`, payload: { invoiceDate: '02/03/2026' } });
    expect(badDate.statusCode).toBe(400);
    expect(badDate.json().message).toBe('Date invalide');
    const emptyRef = await asAdmin()({ method: 'PUT', url: `/api/invoices/${invoiceId}`, payload: { reference: ' ' } });
    expect(emptyRef.statusCode).toBe(400);
    expect(emptyRef.json().message).toBe('Veuillez entrer une référence');
    const [row] = await ctx.db.select({ reference: invoices.reference }).from(invoices).where(eq(invoices.id, invoiceId));
    expect(row!.reference).toBe('FAC-EDIT');
    const unknown = await asAdmin()({ method: 'PUT', url: '/api/invoices/00000000-0000-4000-8000-000000000000', payload: { reference: 'X' } });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('GET /api/invoices/technicians (the technician picker)', () => {
  it('searches the technicians that have invoices (name either way round, e-mail, company), by name, at most `limit`; refuses bad input in French', async () => {
    await checkTechnicianPicker({
      ctx,
      adminCookie,
      url: '/api/invoices/technicians',
      table: 'invoices',
      withRow: async (technicianId) => {
        await invoiceToSubmit(ctx.db, { technicianId });
      },
      family: 'Moreauvert',
    });
  });
});

describe('admin lists', () => {
  it('filters by technician, search and chip (Terminé includes paid transfers), pages with X-Total-Count and joins file and transfer', async () => {
    const paid = await submittedInvoice({ firstName: 'Zoé', lastName: 'Paiement', reference: 'ZP-1' });
    await pay(paid.invoiceId);
    const sent = await submittedInvoice({ firstName: 'Zoé', lastName: 'Envoi', reference: 'ZE-1' });
    const toSubmit = await invoiceToSubmit(ctx.db);
    const running = await invoiceToSubmit(ctx.db);
    await ctx.db.update(invoices).set({ status: 'Mission à terminer' }).where(eq(invoices.id, running.invoiceId));

    const ids = async (query: string) => {
      const response = await asAdmin()({ method: 'GET', url: `/api/invoices${query}` });
      expect(response.statusCode).toBe(200);
      return adminInvoiceSchema.array().parse(response.json()).map((i) => i.id);
    };
    expect(await ids('?status=Terminé')).toContain(paid.invoiceId);
    expect(await ids('?status=Terminé')).not.toContain(sent.invoiceId);
    expect(await ids(`?status=${encodeURIComponent('Facture envoyée')}`)).toEqual(expect.arrayContaining([sent.invoiceId]));
    expect(await ids(`?status=${encodeURIComponent('Facture envoyée')}`)).not.toContain(paid.invoiceId);
    expect(await ids(`?status=${encodeURIComponent('Facture à soumettre')}`)).toContain(toSubmit.invoiceId);
    expect(await ids(`?status=${encodeURIComponent('Mission à réaliser')}`)).toContain(running.invoiceId);
    expect(await ids(`?status=${encodeURIComponent('Mission à réaliser')}`)).not.toContain(toSubmit.invoiceId);
    expect(await ids(`?technicianId=${paid.technicianId}`)).toEqual([paid.invoiceId]);
    expect((await ids('?search=zo%C3%A9')).sort()).toEqual([paid.invoiceId, sent.invoiceId].sort());
    expect(await ids('?search=ZE-1')).toEqual([sent.invoiceId]);
    expect(await ids('?search=100%25')).toEqual([]);

    const full = await asAdmin()({ method: 'GET', url: `/api/invoices?technicianId=${sent.technicianId}` });
    const [item] = adminInvoiceSchema.array().parse(full.json());
    expect(item).toMatchObject({ technicianName: 'Zoé Envoi', displayStatus: 'Facture envoyée', reference: 'ZE-1', fileName: 'facture.pdf', latestTransfer: { status: 'Enregistré', invoiceRef: 'ZE-1' } });
    expect(item!.fileId).not.toBeNull();
    const file = await asAdmin()({ method: 'GET', url: `/api/files/${item!.fileId}` });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');

    const page = await asAdmin()({ method: 'GET', url: '/api/invoices?limit=2&offset=1' });
    expect(page.json()).toHaveLength(2);
    // Unfiltered, the total is the count the database keeps: the same as counting the table.
    const [{ n: invoiceRows } = { n: -1 }] = await ctx.db.select({ n: count() }).from(invoices);
    expect(Number(page.headers['x-total-count'])).toBe(invoiceRows);
    expect(invoiceRows).toBeGreaterThanOrEqual(4);

    const counts = invoiceChipCountsSchema.parse((await asAdmin()({ method: 'GET', url: '/api/invoices/status-counts?search=zo%C3%A9' })).json());
    expect(counts).toEqual({ 'Mission à réaliser': 0, 'Facture à soumettre': 0, 'Facture envoyée': 1, Terminé: 1 });
    // Without a filter and for one technician, each chip counts what the list filtered by it totals (the list finds the
    // paid invoices on its own, one lookup per invoice).
    for (const filter of ['', `technicianId=${paid.technicianId}`]) {
      const chips = invoiceChipCountsSchema.parse((await asAdmin()({ method: 'GET', url: `/api/invoices/status-counts?${filter}` })).json());
      for (const [chip, n] of Object.entries(chips)) {
        const listed = await asAdmin()({ method: 'GET', url: `/api/invoices?status=${encodeURIComponent(chip)}&limit=1&${filter}` });
        expect(Number(listed.headers['x-total-count']), `${chip} ${filter}`).toBe(n);
      }
      expect(Object.values(chips).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    }
    // A transfer written on its own changes its invoice's chip at once: the trigger writes the invoice (migration 0040),
    // so the chips' cached answer goes with it (TRIGGER_WRITES: transfers → invoices).
    const chipsOf = async () =>
      invoiceChipCountsSchema.parse((await asAdmin()({ method: 'GET', url: `/api/invoices/status-counts?technicianId=${paid.technicianId}` })).json());
    const chipsBefore = await chipsOf();
    const liveTransfer = (status: string) => and(eq(transfers.invoiceId, paid.invoiceId), eq(transfers.status, status));
    await ctx.db.update(transfers).set({ status: 'Refus' }).where(liveTransfer('Effectué'));
    expect((await chipsOf()).Terminé).toBe(chipsBefore.Terminé - 1);
    await ctx.db.update(transfers).set({ status: 'Effectué' }).where(liveTransfer('Refus'));
    expect(await chipsOf()).toEqual(chipsBefore);

    const options = technicianOptionSchema.array().parse((await asAdmin()({ method: 'GET', url: '/api/invoices/technicians?search=zo%C3%A9' })).json());
    expect(options.map((o) => o.name)).toEqual(['Zoé Envoi', 'Zoé Paiement']);

    const badChip = await asAdmin()({ method: 'GET', url: '/api/invoices?status=Pay%C3%A9e' });
    expect(badChip.statusCode).toBe(400);
    expect(badChip.json().message).toBe('Statut invalide');
  });

  it('lists transfers and invoice files with filters and totals', async () => {
    const { invoiceId, technicianId } = await submittedInvoice({ reference: 'TR-1' });
    const list = await asAdmin()({ method: 'GET', url: `/api/transfers?technicianId=${technicianId}` });
    expect(list.headers['x-total-count']).toBe('1');
    expect(adminTransferSchema.array().parse(list.json())[0]).toMatchObject({ invoiceId, status: 'Enregistré', invoiceRef: 'TR-1', technicianName: 'Jeanne Martin', bankAccountLast4: '0189' });
    const byStatus = await asAdmin()({ method: 'GET', url: `/api/transfers?technicianId=${technicianId}&status=Effectu%C3%A9` });
    expect(byStatus.json()).toEqual([]);
    // Without a filter, or by status alone, the total is the count the database keeps: the same as counting the
    // table; the page is the most recent first.
    const counted = async (status?: string) =>
      Number((await ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from transfers ${status ? sql`where status = ${status}` : sql``}`)).rows[0]!.n);
    const all = await asAdmin()({ method: 'GET', url: '/api/transfers?limit=2' });
    expect(Number(all.headers['x-total-count'])).toBe(await counted());
    expect(await counted()).toBeGreaterThan(0);
    const dates = adminTransferSchema.array().parse(all.json()).map((t) => t.createdAt);
    expect(dates).toEqual([...dates].sort().reverse());
    const recorded = await asAdmin()({ method: 'GET', url: `/api/transfers?status=${encodeURIComponent('Enregistré')}&limit=1` });
    expect(Number(recorded.headers['x-total-count'])).toBe(await counted('Enregistré'));
    const files = await asAdmin()({ method: 'GET', url: `/api/invoice-files?invoiceId=${invoiceId}` });
    expect(files.headers['x-total-count']).toBe('1');
    expect(invoiceFileSchema.array().parse(files.json())[0]).toMatchObject({ reference: 'TR-1', amountCertified: 480, fileName: 'facture.pdf' });
    expect(list.body).not.toContain('FR76');
  });

  it('exports the filtered invoices as CSV for the accountant', async () => {
    const { technicianId } = await submittedInvoice({ firstName: '=Formule', lastName: 'Export', reference: 'CSV-1' });
    const response = await asAdmin()({ method: 'GET', url: `/api/invoices/export.csv?technicianId=${technicianId}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="factures-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(response.body.startsWith('\uFEFFRéférence facture;Technicien;Entreprise;Mission;Statut;')).toBe(true);
    const lines = response.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('CSV-1;\'=Formule Export;');
    // Read back by csv-parse: the values, with the apostrophe that keeps a spreadsheet from running "=Formule…".
    const [header, row] = parse(response.body, { bom: true, delimiter: ';', record_delimiter: '\r\n' }) as string[][];
    const record = Object.fromEntries(header!.map((name, i) => [name, row![i]]));
    expect(record).toMatchObject({
      'Référence facture': 'CSV-1',
      Technicien: "'=Formule Export",
      Statut: 'Facture envoyée',
      'Montant validé (€ HT)': '480,00',
      'Statut virement': 'Enregistré',
    });
    expect(header).toHaveLength(13);
  });

  it('admin routes answer 401 anonymously and 403 to a technician, without changes', async () => {
    const { invoiceId, cookie } = await submittedInvoice();
    const before = { audit: await countRows(ctx.db, 'audit_log'), transfers: await countRows(ctx.db, 'transfers') };
    const routes = [
      { method: 'GET', url: '/api/invoices' },
      { method: 'GET', url: '/api/invoices/status-counts' },
      { method: 'GET', url: '/api/invoices/technicians' },
      { method: 'GET', url: '/api/invoices/technicians?search=Martin&limit=5' },
      { method: 'GET', url: '/api/invoices/export.csv' },
      { method: 'GET', url: '/api/transfers' },
      { method: 'GET', url: '/api/invoice-files' },
      { method: 'PATCH', url: '/api/transfers/status', payload: { invoiceId, status: 'Effectué' } },
      { method: 'PATCH', url: `/api/invoices/${invoiceId}/status`, payload: { status: 'Terminé' } },
      { method: 'PUT', url: `/api/invoices/${invoiceId}`, payload: { reference: 'PIRATE' } },
    ] as const;
    for (const route of routes) {
      expect((await as(ctx.app, null)(route)).statusCode, `${route.method} ${route.url}`).toBe(401);
      const asTech = await as(ctx.app, cookie)(route);
      expect(asTech.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(asTech.json().message).toBe('Accès réservé à l’administrateur');
    }
    expect({ audit: await countRows(ctx.db, 'audit_log'), transfers: await countRows(ctx.db, 'transfers') }).toEqual(before);
    const [transfer] = await ctx.db.select({ status: transfers.status }).from(transfers).where(eq(transfers.invoiceId, invoiceId));
    expect(transfer!.status).toBe('Enregistré');
  });
});
