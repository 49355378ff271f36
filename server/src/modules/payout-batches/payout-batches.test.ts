import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { XMLParser } from 'fast-xml-parser';
import { isSEPACountry, isValidBIC, isValidIBAN } from 'ibantools';
import { payoutBatchDetailSchema, payoutBatchSchema, payoutCandidateSchema, payoutSettingsSchema } from '@maillon/common/schemas/payout-batches';
import { adminInvoiceSchema } from '@maillon/common/schemas/money';
import { invoices, technicians, transfers } from '../../db/schema';
import { as, countRows, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';
import { invoiceToSubmit, multipart, samplePdf } from '../money/money.test-helpers';
import { sepaAmount, toSepaId, toSepaText } from './sepa-credit-transfer';

/**
 * Issue 21: SEPA payout batches. The file is read back with fast-xml-parser (not our writer) and checked against the
 * pain.001.001.03 structure: one CdtTrfTxInf per transfer, CtrlSum = sum, NbOfTxs = count, amounts "1234.50", valid
 * IBANs, names in the SEPA character set within 70 characters. Batches hold a transfer once, only « Enregistré » ones;
 * paying a batch pays each transfer once; refusing a line sends the invoice back to the technician.
 */
const CHARITY = { CHARITY_IBAN: 'FR7630004000031234567890143', CHARITY_BIC: 'BNPAFRPPXXX', CHARITY_NAME: 'Association Maillon pour la chaîne de survie' };
let ctx: TestContext;
let adminCookie: string;
const admin = () => as(ctx.app, adminCookie);

beforeAll(async () => {
  ctx = await createTestContext(CHARITY);
  adminCookie = await login(ctx.app, (await createAdmin(ctx.db)).email);
});
afterAll(async () => {
  await ctx.close();
});

/** A technician with a submitted invoice: a transfer « Enregistré » of `euros`. */
async function waitingTransfer({ firstName = 'Jeanne', lastName = 'Martin', iban = 'FR7630006000011234567890189', cents = 48_000, reference = `FAC-${Math.random().toString(36).slice(2, 8)}` } = {}) {
  const { technician, user } = await createTechnician(ctx.db, { firstName, lastName, iban, siret: '81234567800012' });
  const cookie = await login(ctx.app, user.email);
  const { invoiceId } = await invoiceToSubmit(ctx.db, { technicianId: technician.id, validatedCents: cents });
  const body = multipart({ reference, amount_certified: (cents / 100).toFixed(2) }, { name: 'facture.pdf', content: await samplePdf() });
  const response = await as(ctx.app, cookie)({ method: 'POST', url: `/api/invoice/${invoiceId}/submit`, payload: body.payload, headers: body.headers });
  expect(response.statusCode, response.body).toBe(201);
  const [transfer] = await ctx.db.select({ id: transfers.id }).from(transfers).where(eq(transfers.invoiceId, invoiceId));
  return { technicianId: technician.id, invoiceId, transferId: transfer!.id, cookie, reference, cents };
}

/**
 * The candidates' total (X-Total-Count, kept counts less the lines « À payer ») equals the waiting transfers no batch
 * holds, counted here on the tables, and the rows the list gives page after page, on the first page and past it.
 */
async function expectCandidatesTotal() {
  const counted = await ctx.db.execute<{ n: number | string }>(sql`select count(*) as n from transfers t where t.status = 'Enregistré'
    and not exists (select 1 from payout_batch_lines l where l.transfer_id = t.id and l.status <> 'Annulé')`);
  const expected = Number(counted.rows[0]!.n);
  const ids: string[] = [];
  for (let offset = 0; ; offset += 2) {
    const page = await admin()({ method: 'GET', url: `/api/payout-batches/candidates?limit=2&offset=${offset}` });
    expect(page.statusCode).toBe(200);
    expect(Number(page.headers['x-total-count'])).toBe(expected);
    const rows = payoutCandidateSchema.array().parse(page.json());
    ids.push(...rows.map((row) => row.transferId));
    if (rows.length < 2) break;
  }
  expect(new Set(ids).size).toBe(expected);
  expect(ids.length).toBe(expected);
}

const xmlParser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false, isArray: (name) => name === 'CdtTrfTxInf' || name === 'PmtInf' });

/** Child element names in document order (fast-xml-parser keeps insertion order per object). */
const childNames = (node: Record<string, unknown>) => Object.keys(node).filter((k) => !k.startsWith('@') && k !== '#text');

/** The pain.001.001.03 sequences (the XSD's element order), for the elements we write. */
const XSD_ORDER: Record<string, string[]> = {
  GrpHdr: ['MsgId', 'CreDtTm', 'Authstn', 'NbOfTxs', 'CtrlSum', 'InitgPty', 'FwdgAgt'],
  PmtInf: ['PmtInfId', 'PmtMtd', 'BtchBookg', 'NbOfTxs', 'CtrlSum', 'PmtTpInf', 'ReqdExctnDt', 'PoolgAdjstmntDt', 'Dbtr', 'DbtrAcct', 'DbtrAgt', 'DbtrAgtAcct', 'UltmtDbtr', 'ChrgBr', 'ChrgsAcct', 'ChrgsAcctAgt', 'CdtTrfTxInf'],
  CdtTrfTxInf: ['PmtId', 'PmtTpInf', 'Amt', 'XchgRateInf', 'ChrgBr', 'ChqInstr', 'UltmtDbtr', 'IntrmyAgt1', 'IntrmyAgt1Acct', 'IntrmyAgt2', 'IntrmyAgt2Acct', 'IntrmyAgt3', 'IntrmyAgt3Acct', 'CdtrAgt', 'CdtrAgtAcct', 'Cdtr', 'CdtrAcct', 'UltmtCdtr', 'InstrForCdtrAgt', 'InstrForDbtrAgt', 'Purp', 'RgltryRptg', 'Tax', 'RltdRmtInf', 'RmtInf'],
  PmtId: ['InstrId', 'EndToEndId'],
};
function inXsdOrder(name: string, node: Record<string, unknown>) {
  const order = XSD_ORDER[name]!;
  const positions = childNames(node).map((child) => order.indexOf(child));
  expect(positions.every((p) => p >= 0), `${name}: ${childNames(node).join(', ')}`).toBe(true);
  expect([...positions].sort((a, b) => a - b), `${name} order`).toEqual(positions);
}

const SEPA_TEXT = /^[A-Za-z0-9/\-?:().,'+ ]*$/;
/** Max35Text identifiers of the EPC guidelines: SEPA characters, no space, no leading/trailing/double slash. */
const SEPA_ID = /^(?!\/)(?!.*\/\/)[A-Za-z0-9/\-?:().,'+]{1,35}(?<!\/)$/;

describe('SEPA payout batches', () => {
  it('lists the waiting transfers, makes a batch and gives a pain.001.001.03 file an independent parser reads back', async () => {
    const a = await waitingTransfer({ firstName: 'Zoé', lastName: 'Lefèvre-Œuvrard', cents: 65_000, reference: 'FA-2026/042' });
    const b = await waitingTransfer({ firstName: 'Jürgen', lastName: 'Groß & Fils', iban: 'DE89370400440532013000', cents: 48_050, reference: 'RE_2026#7 «spécial»' });
    const c = await waitingTransfer({ firstName: 'François', lastName: `L’Hôte${'x'.repeat(80)}`, iban: 'BE68539007547034', cents: 12_345 });

    const settings = payoutSettingsSchema.parse((await admin()({ method: 'GET', url: '/api/payout-batches/settings' })).json());
    expect(settings).toEqual({ debtorConfigured: true, debtorName: CHARITY.CHARITY_NAME, debtorIbanLast4: '0143', debtorBic: 'BNPAFRPPXXX', charitySiret: null });
    const candidates = await admin()({ method: 'GET', url: '/api/payout-batches/candidates?limit=100' });
    const list = payoutCandidateSchema.array().parse(candidates.json());
    for (const t of [a, b, c]) expect(list.find((x) => x.transferId === t.transferId)).toMatchObject({ problem: null, ibanChanged: false });

    const created = await admin()({ method: 'POST', url: '/api/payout-batches', payload: { transferIds: [a.transferId, b.transferId, c.transferId] } });
    expect(created.statusCode, created.body).toBe(201);
    const batch = payoutBatchDetailSchema.parse(created.json());
    expect(batch).toMatchObject({ status: 'Préparé', transferCount: 3, total: 1253.95, paidCount: 0, debtorIbanLast4: '0143' });
    expect(batch.reference).toMatch(/^SEPA-\d{8}-[0-9A-F]{6}$/);
    const names = Object.fromEntries(batch.lines.map((l) => [l.transferId, l.creditorName]));
    expect([names[a.transferId], names[b.transferId], names[c.transferId]]).toEqual(['Zoe Lefevre-OEuvrard', 'Jurgen Gross + Fils', `Francois L'Hote${'x'.repeat(80)}`.slice(0, 70)]);
    expect(JSON.stringify(batch)).not.toContain('DE89370400440532013000');

    const download = await admin()({ method: 'GET', url: `/api/payout-batches/${batch.id}/sepa.xml` });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(download.headers['content-disposition']).toContain(`${batch.reference}.xml`);
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    const xml = download.body;
    const again = await admin()({ method: 'GET', url: `/api/payout-batches/${batch.id}/sepa.xml` });
    expect(again.body).toBe(xml);

    const document = xmlParser.parse(xml);
    expect(document.Document['@xmlns']).toBe('urn:iso:std:iso:20022:tech:xsd:pain.001.001.03');
    const initiation = document.Document.CstmrCdtTrfInitn;
    expect(childNames(initiation)).toEqual(['GrpHdr', 'PmtInf']);
    const header = initiation.GrpHdr;
    inXsdOrder('GrpHdr', header);
    const [payment] = initiation.PmtInf;
    inXsdOrder('PmtInf', payment);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a parsed XML tree, walked by element names
    const txs = payment.CdtTrfTxInf as Record<string, any>[];
    expect(txs).toHaveLength(3);
    const amounts = txs.map((t) => t.Amt.InstdAmt['#text'] as string);
    for (const amount of amounts) expect(amount).toMatch(/^\d+\.\d{2}$/);
    expect(amounts).toEqual(batch.lines.map((l) => sepaAmount(Math.round(l.amount * 100))));
    expect([...amounts].sort()).toEqual(['123.45', '480.50', '650.00']);
    const sum = amounts.reduce((total, v) => total + Math.round(Number(v) * 100), 0);
    expect(header.NbOfTxs).toBe('3');
    expect(payment.NbOfTxs).toBe('3');
    expect(header.CtrlSum).toBe('1253.95');
    expect(payment.CtrlSum).toBe('1253.95');
    expect(Math.round(Number(header.CtrlSum) * 100)).toBe(sum);
    expect(header.MsgId).toBe(batch.reference);
    expect(header.CreDtTm).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(header.InitgPty.Nm).toBe('Association Maillon pour la chaine de survie');
    expect(payment).toMatchObject({ PmtMtd: 'TRF', BtchBookg: 'true', PmtTpInf: { SvcLvl: { Cd: 'SEPA' } }, ChrgBr: 'SLEV', DbtrAcct: { Id: { IBAN: CHARITY.CHARITY_IBAN } }, DbtrAgt: { FinInstnId: { BIC: 'BNPAFRPPXXX' } } });
    expect(payment.ReqdExctnDt).toBe(batch.executionDate);
    expect(isValidBIC(payment.DbtrAgt.FinInstnId.BIC)).toBe(true);
    const endToEnd = new Set<string>();
    for (const [index, tx] of txs.entries()) {
      inXsdOrder('CdtTrfTxInf', tx);
      inXsdOrder('PmtId', tx.PmtId);
      expect(tx.Amt.InstdAmt['@Ccy']).toBe('EUR');
      const iban = tx.CdtrAcct.Id.IBAN as string;
      expect(isValidIBAN(iban) && isSEPACountry(iban.slice(0, 2)), iban).toBe(true);
      expect(tx.Cdtr.Nm).toMatch(SEPA_TEXT);
      expect(tx.Cdtr.Nm.length).toBeLessThanOrEqual(70);
      expect(tx.RmtInf.Ustrd).toMatch(SEPA_TEXT);
      expect(tx.RmtInf.Ustrd.length).toBeLessThanOrEqual(140);
      expect(tx.PmtId.EndToEndId).toMatch(SEPA_ID);
      expect(tx.PmtId.EndToEndId).toBe(`${batch.reference}-${String(index + 1).padStart(3, '0')}`);
      endToEnd.add(tx.PmtId.EndToEndId);
    }
    expect(endToEnd.size).toBe(3);
    expect(txs.map((t) => t.Cdtr.Nm)).toEqual(batch.lines.map((l) => l.creditorName));
    const remittances = Object.fromEntries(batch.lines.map((l) => [l.transferId, l.remittance]));
    expect([remittances[a.transferId], remittances[b.transferId], remittances[c.transferId]]).toEqual(['FA-2026/042', "RE-2026 7 'special'", c.reference]);
    expect(txs.map((t) => t.RmtInf.Ustrd)).toEqual(batch.lines.map((l) => l.remittance));
    expect(header.MsgId).toMatch(SEPA_ID);
    expect(payment.PmtInfId).toMatch(SEPA_ID);

    // Transfers in the batch leave the waiting list; the invoice card shows the batch and refuses a single payment.
    const after = payoutCandidateSchema.array().parse((await admin()({ method: 'GET', url: '/api/payout-batches/candidates?limit=100' })).json());
    expect(after.some((x) => [a, b, c].some((t) => t.transferId === x.transferId))).toBe(false);
    const card = adminInvoiceSchema.array().parse((await admin()({ method: 'GET', url: `/api/invoices?search=${encodeURIComponent('FA-2026/042')}` })).json())[0];
    expect(card?.payoutBatchReference).toBe(batch.reference);
    const single = await admin()({ method: 'PATCH', url: '/api/transfers/status', payload: { invoiceId: a.invoiceId, status: 'Effectué' } });
    expect(single.statusCode).toBe(409);
    expect(single.json().message).toBe(`Ce virement fait partie du lot de virements ${batch.reference}, envoyé à la banque : marquez le lot payé ou refusez la ligne depuis le lot`);
    expect((await admin()({ method: 'PATCH', url: '/api/transfers/status', payload: { invoiceId: a.invoiceId, status: 'Refus' } })).statusCode).toBe(409);

    // Marking the batch paid: each transfer Effectué once, its reference = batch + line, earnings once.
    const paid = await admin()({ method: 'POST', url: `/api/payout-batches/${batch.id}/pay`, payload: {} });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(payoutBatchDetailSchema.parse(paid.json())).toMatchObject({ status: 'Payé', paidCount: 3 });
    const rows = await ctx.db.select().from(transfers).where(inArray(transfers.id, [a.transferId, b.transferId, c.transferId]));
    for (const line of batch.lines) {
      const row = rows.find((r) => r.id === line.transferId)!;
      expect(row).toMatchObject({ status: 'Effectué', transferRef: line.endToEndId });
      expect(row.transferDate).toBeInstanceOf(Date);
    }
    const earnings = await ctx.db.select({ id: technicians.id, cents: technicians.totalEarningsCents }).from(technicians).where(inArray(technicians.id, [a.technicianId, b.technicianId, c.technicianId]));
    expect(Object.fromEntries(earnings.map((e) => [e.id, e.cents]))).toEqual({ [a.technicianId]: 65_000, [b.technicianId]: 48_050, [c.technicianId]: 12_345 });
    const [invoice] = await ctx.db.select({ paidDate: invoices.paidDate }).from(invoices).where(eq(invoices.id, a.invoiceId));
    expect(invoice!.paidDate).toBeInstanceOf(Date);

    const audits = await countRows(ctx.db, 'audit_log');
    const repeat = await admin()({ method: 'POST', url: `/api/payout-batches/${batch.id}/pay`, payload: {} });
    expect(repeat.statusCode).toBe(200);
    expect(await countRows(ctx.db, 'audit_log')).toBe(audits);
    const again2 = await ctx.db.select({ cents: technicians.totalEarningsCents }).from(technicians).where(eq(technicians.id, a.technicianId));
    expect(again2[0]!.cents).toBe(65_000);
    expect((await admin()({ method: 'POST', url: `/api/payout-batches/${batch.id}/cancel`, payload: {} })).statusCode).toBe(409);

    const listed = payoutBatchSchema.array().parse((await admin()({ method: 'GET', url: '/api/payout-batches?status=Payé' })).json());
    expect(listed.map((x) => x.id)).toContain(batch.id);
  }, 60_000);

  it('never holds a transfer twice, nor one that is not « Enregistré »; a retry answers the same batch', async () => {
    const a = await waitingTransfer();
    const b = await waitingTransfer();
    const twice = await admin()({ method: 'POST', url: '/api/payout-batches', payload: { transferIds: [a.transferId, a.transferId] } });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toBe('Un virement est sélectionné deux fois');

    await expectCandidatesTotal();
    const first = await admin()({ method: 'POST', url: '/api/payout-batches', payload: { transferIds: [a.transferId] } });
    expect(first.statusCode).toBe(201);
    await expectCandidatesTotal();
    const batch = payoutBatchDetailSchema.parse(first.json());
    const retry = await admin()({ method: 'POST', url: '/api/payout-batches', payload: { transferIds: [a.transferId] } });
    expect(retry.statusCode).toBe(200);
    expect(retry.json().id).toBe(batch.id);

    const batches = await countRows(ctx.db, 'payout_batches');
    const overlap = await admin()({ method: 'POST', url: '/api/payout-batches', payload: { transferIds: [a.transferId, b.transferId] } });
    expect(overlap.statusCode).toBe(409);
    expect(overlap.json().message).toMatch(new RegExp(`^Le virement ${a.reference} \\(Jeanne Martin\\) est déjà dans le lot ${batch.reference}$`));

    // Paid elsewhere (« Marquer Payée » on the invoice) or refused: not « Enregistré » any more.
    const c = await waitingTransfer();
    expect((await admin()({ method: 'PATCH', url: '/api/transfers/status', payload: { invoiceId: c.invoiceId, status: 'Effectué' } })).statusCode).toBe(200);
    const done = await admin()({ method: 'POST', url: '/api/payout-batches', payload: { transferIds: [c.transferId] } });
    expect(done.statusCode).toBe(409);
    expect(done.json().message).toBe(`Le virement ${c.reference} (Jeanne Martin) est « Effectué » : seuls les virements « Enregistré » peuvent être payés`);
    const unknown = await admin()({ method: 'POST', url: '/api/payout-batches', payload: { transferIds: ['00000000-0000-4000-8000-000000000000'] } });
    expect(unknown.statusCode).toBe(404);
    expect(await countRows(ctx.db, 'payout_batches')).toBe(batches);

    // Cancelled before being sent: the transfer can be batched again; the cancelled file is gone.
    const cancelled = await admin()({ method: 'POST', url: `/api/payout-batches/${batch.id}/cancel`, payload: {} });
    expect(payoutBatchDetailSchema.parse(cancelled.json())).toMatchObject({ status: 'Annulé', lines: [{ status: 'Annulé' }] });
    expect((await admin()({ method: 'GET', url: `/api/payout-batches/${batch.id}/sepa.xml` })).statusCode).toBe(409);
    expect((await admin()({ method: 'POST', url: `/api/payout-batches/${batch.id}/pay`, payload: {} })).statusCode).toBe(409);
    await expectCandidatesTotal();
    const rebatched = await admin()({ method: 'POST', url: '/api/payout-batches', payload: { transferIds: [a.transferId, b.transferId] } });
    expect(rebatched.statusCode).toBe(201);
    await expectCandidatesTotal();
  }, 60_000);

  it('refuses one line: transfer Refus, invoice back to « Facture à soumettre »; paying the batch pays the others', async () => {
    const a = await waitingTransfer({ cents: 10_000 });
    const b = await waitingTransfer({ cents: 20_000 });
    const batch = payoutBatchDetailSchema.parse((await admin()({ method: 'POST', url: '/api/payout-batches', payload: { transferIds: [a.transferId, b.transferId] } })).json());
    const lineA = batch.lines.find((l) => l.transferId === a.transferId)!;
    const refused = await admin()({ method: 'POST', url: `/api/payout-batches/${batch.id}/lines/${lineA.id}/refuse`, payload: {} });
    expect(refused.statusCode, refused.body).toBe(200);
    expect(payoutBatchDetailSchema.parse(refused.json())).toMatchObject({ refusedCount: 1 });
    expect((await admin()({ method: 'POST', url: `/api/payout-batches/${batch.id}/lines/${lineA.id}/refuse`, payload: {} })).statusCode).toBe(200);
    const [transferA] = await ctx.db.select({ status: transfers.status }).from(transfers).where(eq(transfers.id, a.transferId));
    const [invoiceA] = await ctx.db.select({ status: invoices.status }).from(invoices).where(eq(invoices.id, a.invoiceId));
    expect([transferA!.status, invoiceA!.status]).toEqual(['Refus', 'Facture à soumettre']);
    await expectCandidatesTotal();

    const paid = payoutBatchDetailSchema.parse((await admin()({ method: 'POST', url: `/api/payout-batches/${batch.id}/pay`, payload: {} })).json());
    expect(paid.lines.map((l) => [l.transferId, l.status])).toEqual(expect.arrayContaining([[a.transferId, 'Refusé'], [b.transferId, 'Payé']]));
    const [techA] = await ctx.db.select({ cents: technicians.totalEarningsCents }).from(technicians).where(eq(technicians.id, a.technicianId));
    const [techB] = await ctx.db.select({ cents: technicians.totalEarningsCents }).from(technicians).where(eq(technicians.id, b.technicianId));
    expect([techA!.cents, techB!.cents]).toEqual([0, 20_000]);
    await expectCandidatesTotal();
    const lineB = paid.lines.find((l) => l.transferId === b.transferId)!;
    expect((await admin()({ method: 'POST', url: `/api/payout-batches/${batch.id}/lines/${lineB.id}/refuse`, payload: {} })).json().message).toBe('Ce virement a déjà été effectué');
    expect((await admin()({ method: 'POST', url: `/api/payout-batches/${batch.id}/lines/00000000-0000-4000-8000-000000000000/refuse`, payload: {} })).statusCode).toBe(404);
  }, 60_000);

  it('refuses invalid IBANs before producing a file, flags an IBAN changed since the invoice, batches « all »', async () => {
    const good = await waitingTransfer();
    const bad = await waitingTransfer({ firstName: 'Paul', lastName: 'Invalide' });
    await ctx.db.update(technicians).set({ iban: 'FR7630006000011234567890188' }).where(eq(technicians.id, bad.technicianId));
    const outside = await waitingTransfer({ firstName: 'Arta', lastName: 'Krasniqi' });
    await ctx.db.update(technicians).set({ iban: 'XK051212012345678906' }).where(eq(technicians.id, outside.technicianId));
    const changed = await waitingTransfer({ firstName: 'Léa', lastName: 'Nouvel-IBAN' });
    await ctx.db.update(technicians).set({ iban: 'FR7630006000011234568850101' }).where(eq(technicians.id, changed.technicianId));

    const list = payoutCandidateSchema.array().parse((await admin()({ method: 'GET', url: '/api/payout-batches/candidates?limit=100' })).json());
    expect(list.find((x) => x.transferId === bad.transferId)?.problem).toBe('IBAN de Paul Invalide : IBAN invalide : vérifiez sa saisie (clé de contrôle incorrecte)');
    expect(list.find((x) => x.transferId === outside.transferId)?.problem).toMatch(/^IBAN de Arta Krasniqi : Cet IBAN n’est pas d’un pays de la zone SEPA/);
    expect(list.find((x) => x.transferId === changed.transferId)).toMatchObject({ problem: null, ibanChanged: true, ibanLast4: '0101', submittedIbanLast4: '0189' });

    const batches = await countRows(ctx.db, 'payout_batches');
    const refused = await admin()({ method: 'POST', url: '/api/payout-batches', payload: { transferIds: [good.transferId, bad.transferId, outside.transferId] } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain(`${bad.reference} : IBAN de Paul Invalide : IBAN invalide`);
    expect(refused.json().message).toContain(`${outside.reference} : IBAN de Arta Krasniqi : Cet IBAN n’est pas d’un pays de la zone SEPA`);
    const all = await admin()({ method: 'POST', url: '/api/payout-batches', payload: { all: true } });
    expect(all.statusCode).toBe(400);
    expect(await countRows(ctx.db, 'payout_batches')).toBe(batches);

    await ctx.db.update(technicians).set({ iban: 'FR7630006000011234568310102' }).where(inArray(technicians.id, [bad.technicianId, outside.technicianId]));
    const everything = await admin()({ method: 'POST', url: '/api/payout-batches', payload: { all: true, executionDate: '2099-01-01' } });
    expect(everything.statusCode).toBe(400);
    expect(everything.json().message).toBe('La date d’exécution doit être dans l’année qui vient');
    const made = payoutBatchDetailSchema.parse((await admin()({ method: 'POST', url: '/api/payout-batches', payload: { all: true } })).json());
    expect(made.lines.map((l) => l.transferId)).toEqual(expect.arrayContaining([good.transferId, bad.transferId, outside.transferId, changed.transferId]));
    expect(made.lines.find((l) => l.transferId === changed.transferId)).toMatchObject({ ibanChanged: true, creditorIbanLast4: '0101' });
    expect((await admin()({ method: 'POST', url: '/api/payout-batches', payload: { all: true } })).json()).toMatchObject({ message: 'Aucun virement « Enregistré » à payer' });
    for (const payload of [{}, { transferIds: [] }, { all: false }, { transferIds: [good.transferId], all: true }, { all: true, executionDate: '2026-02-30' }, { all: true, executionDate: '2020-01-01' }]) {
      expect((await admin()({ method: 'POST', url: '/api/payout-batches', payload })).statusCode, JSON.stringify(payload)).toBe(400);
    }
  }, 60_000);

  it('answers a clear 409 while the charity’s account is not configured, and keeps batches to the admin', async () => {
    const bare = await createTestContext();
    try {
      const cookie = await login(bare.app, (await createAdmin(bare.db)).email);
      expect(payoutSettingsSchema.parse((await as(bare.app, cookie)({ method: 'GET', url: '/api/payout-batches/settings' })).json())).toMatchObject({ debtorConfigured: false, debtorIbanLast4: null });
      const response = await as(bare.app, cookie)({ method: 'POST', url: '/api/payout-batches', payload: { all: true } });
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe('Le compte de l’association n’est pas configuré (CHARITY_IBAN et CHARITY_BIC) : impossible de produire un fichier de virements');
    } finally {
      await bare.close();
    }
    const tech = await waitingTransfer();
    for (const [method, url] of [['GET', '/api/payout-batches'], ['GET', '/api/payout-batches/candidates'], ['POST', '/api/payout-batches']] as const) {
      expect((await as(ctx.app, tech.cookie)({ method, url, payload: method === 'POST' ? { all: true } : undefined })).statusCode).toBe(403);
      expect((await as(ctx.app, null)({ method, url, payload: method === 'POST' ? { all: true } : undefined })).statusCode).toBe(401);
    }
  }, 60_000);
});

describe('SEPA text rules', () => {
  it('transliterates to the SEPA character set and cuts to the schema lengths', () => {
    expect(toSepaText('Zoé Lefèvre-Œuvrard', 70)).toBe('Zoe Lefevre-OEuvrard');
    expect(toSepaText('Jürgen Groß & Söhne', 70)).toBe('Jurgen Gross + Sohne');
    expect(toSepaText('Ærøskøbing Łódź ðþ', 70)).toBe('AEroskobing Lodz dth');
    expect(toSepaText('Facture n° 12 — «urgent» ; €', 140)).toBe("Facture no 12 - 'urgent'");
    expect(toSepaText('漢字 only', 70)).toBe('only');
    expect(toSepaText('a'.repeat(200), 140)).toHaveLength(140);
    expect(toSepaId('//SEPA 2026//01/')).toBe('SEPA-2026/01');
    expect(toSepaId('x'.repeat(50))).toHaveLength(35);
    expect(sepaAmount(65_000)).toBe('650.00');
    expect(sepaAmount(5)).toBe('0.05');
    expect(() => sepaAmount(0)).toThrow();
  });
});
