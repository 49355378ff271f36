import crypto from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { centsToEuros, formatDate } from '@maillon/common/format';
import { DEFAULT_TRANSFER_REF } from '@maillon/common/constants';
import {
  INVOICE_SUBMIT_MESSAGES,
  invoiceDisplayStatus,
  type AdminInvoice,
  type AdminInvoiceFilters,
  type AdminTransfer,
  type InvoiceFile,
  type TechnicianInvoice,
  type TechnicianOptionsQuery,
  type TechnicianTransfer,
  type Transfer,
  type UpdateInvoiceRequest,
} from '@maillon/common/schemas/money';
import type { EInvoiceFormat, InvoiceStatus, TransferStatus } from '@maillon/common/enums';
import type { Config } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import { invoices, invoicesFiles, technicians, transfers } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { audit } from '../../lib/audit';
import { buildCsv, type CsvCell } from '../../lib/csv';
import { pdfHasActiveContent, removeStoredFile, sniffFileType, storeFile } from '../../lib/files';
import type { ObjectStorage } from '../../lib/storage/object-storage';
import { listTechnicianOptions } from '../../lib/technician-options';
import { assertTechnicianSelf } from '../../plugins/access';
import type { AuthContext } from '../auth/auth.service';
import { INVOICE_REFERENCE_MAX } from '@maillon/common/schemas/invoice-submission';
import type { InvoiceInspection } from '@maillon/common/schemas/e-invoice';
import { compactSiret } from '@maillon/common/schemas/profile';
import { checkEInvoice, checkPlainPdf, failureMessage, numberKey, parisDay, toEInvoice, type InvoiceFacts } from './e-invoice-checks';
import { PdfReadError, readEInvoice, type EInvoiceReadResult } from './e-invoice';
import { buildFiscalReceiptPdf } from './fiscal-receipt';
import * as repo from './money.repository';
import type { InvoiceRow, TransferRow } from './money.repository';
import type { SearchPageText } from '../../lib/pagination';

/**
 * The money part of the lifecycle (decisions.md §4), after the lifecycle service has brought an invoice to
 * "Facture à soumettre": submission → "Facture envoyée" + invoices_files + transfer "Enregistré"; Marquer Payée →
 * transfer "Effectué" (+ totalEarnings, once); Refuser → transfer "Refus" and the invoice back to "Facture à soumettre";
 * Archiver → "Terminé". Every transition locks the invoice, checks its state (409 otherwise), is idempotent and audited.
 */

type Page = { limit: number; offset: number };

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

/** An invoice as a submission answers it; the technician's list writes the same in SQL (listTechnicianInvoicesText). */
function toTechnicianInvoice(row: InvoiceRow): TechnicianInvoice {
  return {
    id: row.id,
    batchId: row.batchId,
    status: row.status as InvoiceStatus,
    missionTitle: row.missionTitle,
    description: row.description,
    reference: row.reference,
    progression: row.progression,
    initialAmount: centsToEuros(row.initialAmountCents),
    amount: centsToEuros(row.amountCents),
    validatedAmount: centsToEuros(row.validatedAmountCents),
    batchPrice: centsToEuros(row.batchPriceCents),
    invoiceDate: iso(row.invoiceDate),
    dueDate: iso(row.dueDate),
    paidDate: iso(row.paidDate),
    createdAt: row.createdAt.toISOString(),
  };
}

function toTransfer(row: TransferRow): Transfer {
  return {
    id: row.id,
    invoiceId: row.invoiceId,
    batchId: row.batchId,
    technicianId: row.technicianId,
    status: row.status as TransferStatus,
    invoiceRef: row.invoiceRef,
    transferRef: row.transferRef,
    bankAccountLast4: row.bankAccountLast4,
    amount: centsToEuros(row.amountCents),
    transferDate: iso(row.transferDate),
    createdAt: row.createdAt.toISOString(),
  };
}

/** A transfer as a submission answers it; the technician's list writes the same in SQL (listTechnicianTransfersText). */
function toTechnicianTransfer(row: TransferRow & { missionTitle: string | null }): TechnicianTransfer {
  return {
    id: row.id,
    invoiceId: row.invoiceId,
    status: row.status as TransferStatus,
    invoiceRef: row.invoiceRef,
    transferRef: row.transferRef || DEFAULT_TRANSFER_REF,
    bankAccountLast4: row.bankAccountLast4,
    amount: centsToEuros(row.amountCents),
    transferDate: iso(row.transferDate),
    missionTitle: row.missionTitle,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Last 4 characters of the IBAN at the time of the submission (never the full IBAN). */
export function ibanLast4(iban: string | null): string | null {
  const compact = (iban ?? '').replace(/\s+/g, '');
  return compact.length >= 4 ? compact.slice(-4).toUpperCase() : null;
}

/** VIR-yyyymmdd-XXXXXX: readable, unique enough, not guessable. */
export function generateTransferRef(now = new Date()): string {
  const day = now.toISOString().slice(0, 10).replace(/-/g, '');
  return `VIR-${day}-${crypto.randomBytes(3).toString('hex').toUpperCase()}`;
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | undefined;
  return e?.code === '23505' || e?.cause?.code === '23505';
}

/** The invoice, if the caller may see it: admin, or its own technician (any other id answers 404). */
async function findVisibleInvoice(tx: DbOrTx, auth: AuthContext, invoiceId: string, lock = false): Promise<InvoiceRow> {
  const invoice = lock ? await repo.lockInvoice(tx, invoiceId) : await repo.findInvoice(tx, invoiceId);
  if (!invoice) throw new AppError('NOT_FOUND', 'Facture introuvable');
  assertTechnicianSelf(auth, invoice.technicianId, 'Facture introuvable');
  return invoice;
}

/* ----------------------------------------------------------------- technician ----------------------------------------------------------------- */

/** A technician's invoices, as the JSON text the route sends (decision 072), and their number. */
export async function getTechnicianInvoicesText({ db, auth, technicianId, page }: { db: Db; auth: AuthContext; technicianId: string; page: Page }): Promise<SearchPageText> {
  assertTechnicianSelf(auth, technicianId);
  return repo.listTechnicianInvoicesText(db, technicianId, page);
}

/** A technician's transfers, as the JSON text the route sends (decision 072), and their number. */
export async function getTechnicianTransfersText({ db, auth, technicianId, page }: { db: Db; auth: AuthContext; technicianId: string; page: Page }): Promise<SearchPageText> {
  assertTechnicianSelf(auth, technicianId);
  return repo.listTechnicianTransfersText(db, technicianId, page);
}

export async function getRevenueSummary({ db, auth, technicianId }: { db: Db; auth: AuthContext; technicianId: string }) {
  assertTechnicianSelf(auth, technicianId);
  const totals = await repo.getRevenueTotals(db, technicianId);
  return {
    activeMissionGains: centsToEuros(totals.activeCents),
    pendingTransfers: centsToEuros(totals.pendingCents),
    paymentHistory: centsToEuros(totals.paidCents),
  };
}

type EInvoiceConfig = Pick<Config, 'CHARITY_SIRET' | 'EINVOICE_REQUIRED_FROM'>;

/** What an uploaded invoice PDF is: read once, outside any transaction (parsing a PDF takes a few milliseconds to seconds). */
async function readInvoicePdf(buffer: Buffer): Promise<EInvoiceReadResult> {
  if ((await sniffFileType(buffer)) !== 'pdf') throw new AppError('INVALID_FILE', INVOICE_SUBMIT_MESSAGES.pdfOnly);
  let read: EInvoiceReadResult;
  try {
    read = await readEInvoice(buffer);
  } catch (error) {
    if (error instanceof PdfReadError) throw new AppError('INVALID_FILE', 'Ce PDF est trop volumineux une fois décompressé pour être lu');
    throw error;
  }
  if (read.otherAttachments.length > 0) {
    throw new AppError(
      'INVALID_FILE',
      `Ce PDF contient des fichiers joints (${read.otherAttachments.slice(0, 3).join(', ')}) : seule la facture électronique (factur-x.xml) est acceptée`,
    );
  }
  if (read.kind === 'unreadable') throw new AppError('INVALID_FILE', read.message);
  return read;
}

/** The checks of this PDF for this invoice (decision 021); `reference` is the typed one, for a plain PDF's number. */
async function checkInvoicePdf(
  tx: DbOrTx,
  { config, invoice, read, reference }: { config: EInvoiceConfig; invoice: InvoiceRow; read: EInvoiceReadResult; reference: string | null },
) {
  const technician = await repo.findTechnicianForMoney(tx, invoice.technicianId);
  const number = read.kind === 'e-invoice' ? read.data.invoiceNumber : reference;
  const key = number ? numberKey(number) : null;
  const duplicateOf = key ? await repo.findSubmissionByNumber(tx, { technicianId: invoice.technicianId, numberKey: key, exceptInvoiceId: invoice.id }) : null;
  const facts: InvoiceFacts = {
    validatedCents: invoice.validatedAmountCents,
    technicianSiret: technician?.siret ? compactSiret(technician.siret) : null,
    charitySiret: config.CHARITY_SIRET,
    duplicateOf,
    today: parisDay(),
    requiredFrom: config.EINVOICE_REQUIRED_FROM,
  };
  const checks = read.kind === 'e-invoice' ? checkEInvoice(read.data, facts) : checkPlainPdf(reference, facts);
  return { checks, numberKey: key, technician };
}

function assertSubmittable(invoice: InvoiceRow) {
  if (invoice.status === 'Facture envoyée') throw new AppError('INVALID_TRANSITION', 'Cette facture a déjà été soumise');
  if (invoice.status !== 'Facture à soumettre') {
    throw new AppError(
      'INVALID_TRANSITION',
      invoice.status === 'Mission à terminer' ? 'La mission doit être terminée avant de soumettre la facture' : 'Cette facture ne peut plus être soumise',
    );
  }
}

/**
 * « Envoyer facture », first step: the form sends the chosen PDF; the answer says whether it is a Factur-X invoice,
 * what it says (the number pre-fills the reference) and whether it would be accepted, with what differs. Nothing is
 * stored.
 */
export async function inspectInvoice({ db, config, auth, invoiceId, buffer }: { db: Db; config: EInvoiceConfig; auth: AuthContext; invoiceId: string; buffer: Buffer }): Promise<InvoiceInspection> {
  const invoice = await findVisibleInvoice(db, auth, invoiceId);
  assertSubmittable(invoice);
  const read = await readInvoicePdf(buffer);
  if (pdfHasActiveContent(buffer, { allowedEmbeddedFiles: read.kind === 'e-invoice' ? 1 : 0 })) {
    throw new AppError('INVALID_FILE', 'Ce PDF contient du contenu actif (scripts) et ne peut pas être accepté');
  }
  const { checks } = await checkInvoicePdf(db, { config, invoice, read, reference: null });
  const accepted = checks.every((c) => c.ok);
  if (read.kind === 'e-invoice') {
    const data = read.data;
    return {
      format: 'factur-x',
      accepted,
      summary: `Facture électronique Factur-X (profil ${data.profile}) n° ${data.invoiceNumber}${data.issueDate ? ` du ${formatDate(`${data.issueDate}T12:00:00Z`)}` : ''}`,
      eInvoice: toEInvoice(data),
      checks,
      suggestedReference: data.invoiceNumber.slice(0, INVOICE_REFERENCE_MAX),
    };
  }
  return {
    format: 'pdf',
    accepted,
    summary: accepted ? 'PDF simple, sans données de facture électronique' : 'PDF simple refusé : une facture électronique (Factur-X) est obligatoire',
    eInvoice: null,
    checks,
    suggestedReference: null,
  };
}

export interface SubmitInvoiceInput {
  db: Db;
  storage: ObjectStorage;
  config: EInvoiceConfig;
  auth: AuthContext;
  invoiceId: string;
  reference: string;
  amountCertifiedCents: number;
  file: { buffer: Buffer; fileName: string };
}

/**
 * Technician submission: PDF (checked from its bytes) + reference + certified amount (must be the validated amount).
 * A Factur-X PDF is read and checked (amount due, seller, buyer, number: decision 021) and its data kept beside the
 * file; a plain PDF is accepted, flagged, until EINVOICE_REQUIRED_FROM. One transaction: file record, invoices_files
 * row, invoice "Facture envoyée", transfer "Enregistré". The stored file is removed if anything fails. A retry with the
 * same reference answers the existing result; two concurrent submissions never create two transfers (row lock +
 * partial unique index), and two invoices of one technician never share a number (per-technician lock).
 */
export async function submitInvoice(input: SubmitInvoiceInput) {
  const { db, storage, config, auth, invoiceId, reference, amountCertifiedCents, file } = input;
  // Ownership before reading the file: another technician's invoice answers 404 whatever the file.
  await findVisibleInvoice(db, auth, invoiceId);
  const stored: { key: string | null } = { key: null };
  try {
    return await db.transaction(async (tx) => {
      const invoice = await findVisibleInvoice(tx, auth, invoiceId, true);
      if (invoice.status === 'Facture envoyée') {
        const live = await repo.findLiveTransfer(tx, invoice.id);
        if (live && live.invoiceRef === reference && live.amountCents === amountCertifiedCents) {
          return { invoice: toTechnicianInvoice(invoice), transfer: toTechnicianTransfer({ ...live, missionTitle: invoice.missionTitle }), created: false };
        }
      }
      assertSubmittable(invoice);
      if (amountCertifiedCents !== invoice.validatedAmountCents) {
        throw new AppError('BAD_REQUEST', INVOICE_SUBMIT_MESSAGES.amountMismatch, { amount_certified: INVOICE_SUBMIT_MESSAGES.amountMismatch });
      }
      const read = await readInvoicePdf(file.buffer);
      if (read.kind === 'e-invoice' && numberKey(reference) !== numberKey(read.data.invoiceNumber)) {
        const message = `Référence saisie : ${reference} ; numéro de la facture électronique : ${read.data.invoiceNumber}`;
        throw new AppError('VALIDATION_ERROR', message, { reference: message });
      }
      await repo.lockTechnicianSubmissions(tx, invoice.technicianId);
      const { checks, numberKey: key, technician } = await checkInvoicePdf(tx, { config, invoice, read, reference });
      const refusal = failureMessage(checks);
      if (refusal) throw new AppError(read.kind === 'e-invoice' ? 'EINVOICE_MISMATCH' : 'EINVOICE_REQUIRED', refusal, { invoice_file: refusal });
      const last4 = ibanLast4(technician?.iban ?? null);
      if (!last4) {
        throw new AppError('BAD_REQUEST', 'Veuillez renseigner votre IBAN dans « Mon compte » avant de soumettre une facture');
      }

      const saved = await storeFile(tx, {
        storage,
        technicianId: invoice.technicianId,
        kind: 'invoice',
        buffer: file.buffer,
        originalName: file.fileName,
        invalidTypeMessage: INVOICE_SUBMIT_MESSAGES.pdfOnly,
        allowedEmbeddedFiles: read.kind === 'e-invoice' ? 1 : 0,
      });
      stored.key = saved.storageKey;

      await tx.insert(invoicesFiles).values({
        invoiceId: invoice.id,
        technicianId: invoice.technicianId,
        reference,
        fileId: saved.id,
        amountCertifiedCents,
        eInvoiceFormat: read.kind === 'e-invoice' ? 'factur-x' : 'pdf',
        invoiceNumberKey: key,
        eInvoice: read.kind === 'e-invoice' ? read.data : null,
      });
      const now = new Date();
      const [updated] = await tx
        .update(invoices)
        .set({ status: 'Facture envoyée', reference, invoiceDate: invoice.invoiceDate ?? now })
        .where(and(eq(invoices.id, invoice.id), eq(invoices.status, 'Facture à soumettre')))
        .returning(repo.invoiceColumns);
      if (!updated) throw new AppError('INVALID_TRANSITION', 'Cette facture a déjà été soumise');

      let transfer: TransferRow;
      try {
        await tx.execute(sql`savepoint submit_transfer`);
        const [row] = await tx
          .insert(transfers)
          .values({
            batchId: invoice.batchId,
            technicianId: invoice.technicianId,
            invoiceId: invoice.id,
            status: 'Enregistré',
            invoiceRef: reference,
            bankAccountLast4: last4,
            amountCents: invoice.validatedAmountCents,
          })
          .returning(repo.transferColumns);
        await tx.execute(sql`release savepoint submit_transfer`);
        transfer = row!;
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('INVALID_TRANSITION', 'Cette facture a déjà été soumise');
        throw error;
      }
      await audit(tx, {
        actorUserId: auth.userId,
        action: 'invoice.submit',
        entity: 'invoice',
        entityId: invoice.id,
        before: { status: invoice.status, reference: invoice.reference },
        after: { status: updated.status, reference, transferId: transfer.id, amountCents: transfer.amountCents, fileId: saved.id, format: read.kind === 'e-invoice' ? 'factur-x' : 'pdf' },
      });
      return { invoice: toTechnicianInvoice(updated), transfer: toTechnicianTransfer({ ...transfer, missionTitle: invoice.missionTitle }), created: true };
    });
  } catch (error) {
    if (stored.key) await removeStoredFile(storage, stored.key);
    throw error;
  }
}

/** The receipt of an invoice whose transfer is Effectué (technician-self or admin). */
export async function getFiscalReceipt({ db, config, auth, invoiceId }: { db: Db; config: Pick<Config, 'CHARITY_NAME' | 'PRODUCT_NAME'>; auth: AuthContext; invoiceId: string }) {
  const invoice = await findVisibleInvoice(db, auth, invoiceId);
  const paid = await repo.findPaidTransfer(db, invoice.id);
  if (!paid) throw new AppError('CONFLICT', 'Le reçu fiscal est disponible une fois le virement effectué');
  const technician = await repo.findTechnicianForMoney(db, invoice.technicianId);
  if (!technician) throw new AppError('NOT_FOUND', 'Facture introuvable');
  const transferReference = paid.transferRef || `VIR-${paid.id.slice(0, 8).toUpperCase()}`;
  const pdf = await buildFiscalReceiptPdf({
    charityName: config.CHARITY_NAME,
    productName: config.PRODUCT_NAME,
    payee: technician,
    missionTitle: invoice.missionTitle,
    invoiceReference: paid.invoiceRef || invoice.reference,
    transferReference,
    transferDate: paid.transferDate ?? paid.createdAt,
    bankAccountLast4: paid.bankAccountLast4,
    amountCents: paid.amountCents,
    generatedAt: new Date(),
  });
  const safeRef = transferReference.replace(/[^A-Za-z0-9_-]/g, '_');
  return { pdf, fileName: `recu-fiscal-${safeRef}.pdf`, reference: transferReference };
}

/* -------------------------------------------------------------------- admin -------------------------------------------------------------------- */

/**
 * An admin invoice card from its invoice, latest transfer, latest submitted file and open payout batch (an action's
 * answer; the page's cards are written by PostgreSQL the same way, repo.listAdminInvoices). The name is trimmed of
 * spaces as PostgreSQL's trim() does.
 */
function toAdminInvoice({ invoice: row, latestTransfer: transfer, latestFile: file, payoutBatchReference }: repo.AdminInvoiceParts): AdminInvoice {
  return Object.assign(toTechnicianInvoice(row), {
    technicianId: row.technicianId,
    technicianName: `${row.technicianFirstName} ${row.technicianLastName}`.replace(/^ +| +$/g, ''),
    companyName: row.companyName,
    invoiceNumber: row.invoiceNumber,
    displayStatus: invoiceDisplayStatus(row.status, transfer?.status),
    latestTransfer: transfer ? toTransfer(transfer) : null,
    fileId: file?.fileId ?? null,
    fileName: file?.fileName ?? null,
    fileFormat: file ? (file.eInvoiceFormat as EInvoiceFormat) : null,
    eInvoice: file?.eInvoice ? toEInvoice(file.eInvoice) : null,
    payoutBatchReference: (transfer && payoutBatchReference) ?? null,
  });
}

/** Cards of invoices read apart (one invoice after a change), with their transfers, files and payout batches. */
async function toAdminInvoices(tx: DbOrTx, rows: repo.AdminInvoiceParts['invoice'][]): Promise<AdminInvoice[]> {
  const ids = rows.map((r) => r.id);
  const [latestTransfers, latestFiles] = await Promise.all([repo.latestTransfersByInvoice(tx, ids), repo.latestFilesByInvoice(tx, ids)]);
  const waiting = [...latestTransfers.values()].filter((t) => t.status === 'Enregistré').map((t) => t.id);
  const openBatches = await repo.openBatchesOfTransfers(tx, waiting);
  return rows.map((row) => {
    const latestTransfer = latestTransfers.get(row.id) ?? null;
    return toAdminInvoice({
      invoice: row,
      latestTransfer,
      latestFile: latestFiles.get(row.id) ?? null,
      payoutBatchReference: (latestTransfer && openBatches.get(latestTransfer.id)) ?? null,
    });
  });
}

/**
 * The admin's invoice page: the cards as the JSON text PostgreSQL wrote and the total (repo.listAdminInvoices; capped
 * past 1 000 found, decision 042).
 */
export async function listInvoices({ db, filters, page }: { db: Db; filters: AdminInvoiceFilters; page: Page }): Promise<SearchPageText> {
  return repo.listAdminInvoices(db, filters, page);
}

export async function countInvoiceChips({ db, filters }: { db: Db; filters: Omit<AdminInvoiceFilters, 'status'> }) {
  return repo.countAdminInvoiceChips(db, filters);
}

/** The technicians that have invoices, searched (the filter of « Factures & virements », the statement's technician). */
/** The picker of « Factures & virements » and « Relevés »: technicians with an invoice, by name (decision 040). */
export async function listInvoiceTechnicians({ db, query }: { db: Db; query: TechnicianOptionsQuery }) {
  return listTechnicianOptions(db, 'invoices', query);
}

export async function listTransfers({
  db,
  filters,
  page,
}: {
  db: Db;
  filters: { technicianId?: string | undefined; invoiceId?: string | undefined; status?: string | undefined };
  page: Page;
}): Promise<{ items: AdminTransfer[]; total: number }> {
  const { rows, total } = await repo.listAdminTransfers(db, filters, page);
  return {
    items: rows.map((r) => ({ ...toTransfer(r), technicianName: `${r.technicianFirstName} ${r.technicianLastName}`.trim(), missionTitle: r.missionTitle })),
    total,
  };
}

export async function listInvoiceFiles({
  db,
  filters,
  page,
}: {
  db: Db;
  filters: { technicianId?: string | undefined; invoiceId?: string | undefined };
  page: Page;
}): Promise<{ items: InvoiceFile[]; total: number }> {
  const { rows, total } = await repo.listInvoiceFiles(db, filters, page);
  return {
    items: rows.map((r) => ({
      id: r.id,
      invoiceId: r.invoiceId,
      technicianId: r.technicianId,
      reference: r.reference,
      fileId: r.fileId,
      fileName: r.fileName,
      size: r.size,
      amountCertified: centsToEuros(r.amountCertifiedCents),
      format: r.eInvoiceFormat as EInvoiceFormat,
      eInvoice: r.eInvoice ? toEInvoice(r.eInvoice) : null,
      createdAt: r.createdAt.toISOString(),
    })),
    total,
  };
}

/** One admin invoice card, read apart (the answer of each admin action on an invoice). */
export async function adminInvoiceById(tx: DbOrTx, invoiceId: string): Promise<AdminInvoice> {
  const row = await repo.findAdminInvoiceRow(tx, invoiceId);
  if (!row) throw new AppError('NOT_FOUND', 'Facture introuvable');
  const [item] = await toAdminInvoices(tx, [row]);
  return item!;
}

/** Who moves a transfer: the admin on the invoice card, or a payout batch (which names the transfer it pays). */
type TransitionSource = { kind: 'invoice' } | { kind: 'batch'; transferId: string; transferRef: string };

/**
 * The pay transition, inside the caller's transaction: locks the invoice, moves its live transfer from "Enregistré" to
 * "Effectué" (date, reference) and adds the amount to the technician's total earnings — exactly once (a repeat, a
 * concurrent call or a second batch finds nothing to move and changes nothing). From the invoice card it is refused
 * while the transfer sits in a payout batch waiting for the bank: the batch pays it (decision 021).
 */
export async function applyTransferPayment(tx: DbOrTx, { auth, invoiceId, source = { kind: 'invoice' } }: { auth: AuthContext; invoiceId: string; source?: TransitionSource }) {
  const invoice = await repo.lockInvoice(tx, invoiceId);
  if (!invoice) throw new AppError('NOT_FOUND', 'Facture introuvable');
  const live = await repo.findLiveTransfer(tx, invoice.id);
  if (live?.status === 'Effectué') return { invoiceId: invoice.id, changed: false };
  if (!live || (source.kind === 'batch' && live.id !== source.transferId)) throw new AppError('INVALID_TRANSITION', 'Aucun virement en attente pour cette facture');
  if (source.kind === 'invoice') await assertNotInOpenBatch(tx, live.id);
  const now = new Date();
  const [paid] = await tx
    .update(transfers)
    .set({ status: 'Effectué', transferDate: now, transferRef: source.kind === 'batch' ? source.transferRef : (live.transferRef ?? generateTransferRef(now)) })
    .where(and(eq(transfers.id, live.id), eq(transfers.status, 'Enregistré')))
    .returning(repo.transferColumns);
  if (!paid) return { invoiceId: invoice.id, changed: false };
  await tx
    .update(technicians)
    .set({ totalEarningsCents: sql`${technicians.totalEarningsCents} + ${paid.amountCents}` })
    .where(eq(technicians.id, paid.technicianId));
  await tx.update(invoices).set({ paidDate: now }).where(eq(invoices.id, invoice.id));
  await audit(tx, {
    actorUserId: auth.userId,
    action: 'transfer.pay',
    entity: 'transfer',
    entityId: paid.id,
    before: { status: live.status },
    after: { status: paid.status, transferRef: paid.transferRef, amountCents: paid.amountCents, invoiceId: invoice.id, via: source.kind },
  });
  return { invoiceId: invoice.id, changed: true };
}

/**
 * The refuse transition, inside the caller's transaction: the live "Enregistré" transfer becomes "Refus" and the
 * invoice goes back to "Facture à soumettre" (the technician submits again). Refusing an Effectué transfer is 409.
 */
export async function applyTransferRefusal(tx: DbOrTx, { auth, invoiceId, source = { kind: 'invoice' } }: { auth: AuthContext; invoiceId: string; source?: TransitionSource }) {
  const invoice = await repo.lockInvoice(tx, invoiceId);
  if (!invoice) throw new AppError('NOT_FOUND', 'Facture introuvable');
  const live = await repo.findLiveTransfer(tx, invoice.id);
  if (live?.status === 'Effectué') throw new AppError('INVALID_TRANSITION', 'Ce virement a déjà été effectué');
  if (!live) {
    const latest = await repo.findLatestTransfer(tx, invoice.id);
    if (latest?.status === 'Refus' && invoice.status === 'Facture à soumettre') return { invoiceId: invoice.id, changed: false };
    throw new AppError('INVALID_TRANSITION', 'Aucun virement en attente pour cette facture');
  }
  if (source.kind === 'batch' && live.id !== source.transferId) throw new AppError('INVALID_TRANSITION', 'Aucun virement en attente pour cette facture');
  if (source.kind === 'invoice') await assertNotInOpenBatch(tx, live.id);
  const [refused] = await tx
    .update(transfers)
    .set({ status: 'Refus' })
    .where(and(eq(transfers.id, live.id), eq(transfers.status, 'Enregistré')))
    .returning({ id: transfers.id });
  if (!refused) return { invoiceId: invoice.id, changed: false };
  await tx.update(invoices).set({ status: 'Facture à soumettre' }).where(eq(invoices.id, invoice.id));
  await audit(tx, {
    actorUserId: auth.userId,
    action: 'transfer.refuse',
    entity: 'transfer',
    entityId: live.id,
    before: { status: live.status, invoiceStatus: invoice.status },
    after: { status: 'Refus', invoiceStatus: 'Facture à soumettre', invoiceId: invoice.id, via: source.kind },
  });
  return { invoiceId: invoice.id, changed: true };
}

async function assertNotInOpenBatch(tx: DbOrTx, transferId: string) {
  const batch = await repo.findOpenBatchOfTransfer(tx, transferId);
  if (batch) {
    throw new AppError(
      'INVALID_TRANSITION',
      `Ce virement fait partie du lot de virements ${batch.reference}, envoyé à la banque : marquez le lot payé ou refusez la ligne depuis le lot`,
    );
  }
}

/**
 * Marquer Payée (Effectué) or Refuser (Refus) the invoice's live transfer, from the invoice card. Paying adds the
 * amount to the technician's total earnings exactly once.
 */
export async function updateTransferStatus({ db, auth, invoiceId, status }: { db: Db; auth: AuthContext; invoiceId: string; status: 'Effectué' | 'Refus' }) {
  return db.transaction(async (tx) => {
    const result = status === 'Effectué' ? await applyTransferPayment(tx, { auth, invoiceId }) : await applyTransferRefusal(tx, { auth, invoiceId });
    return { invoice: await adminInvoiceById(tx, result.invoiceId), changed: result.changed };
  });
}

/** Archiver: "Terminé". Not while the mission runs, nor while a transfer waits for payment. */
export async function archiveInvoice({ db, auth, invoiceId }: { db: Db; auth: AuthContext; invoiceId: string }) {
  return db.transaction(async (tx) => {
    const invoice = await repo.lockInvoice(tx, invoiceId);
    if (!invoice) throw new AppError('NOT_FOUND', 'Facture introuvable');
    if (invoice.status === 'Terminé') return { invoice: await adminInvoiceById(tx, invoice.id), changed: false };
    if (invoice.status === 'Mission à terminer') {
      throw new AppError('INVALID_TRANSITION', 'La mission de cette facture est en cours : elle ne peut pas être archivée');
    }
    const live = await repo.findLiveTransfer(tx, invoice.id);
    if (live?.status === 'Enregistré') {
      throw new AppError('INVALID_TRANSITION', 'Un virement est en attente : marquez la facture payée ou refusez le paiement avant de l’archiver');
    }
    await tx.update(invoices).set({ status: 'Terminé' }).where(eq(invoices.id, invoice.id));
    await audit(tx, {
      actorUserId: auth.userId,
      action: 'invoice.archive',
      entity: 'invoice',
      entityId: invoice.id,
      before: { status: invoice.status },
      after: { status: 'Terminé' },
    });
    return { invoice: await adminInvoiceById(tx, invoice.id), changed: true };
  });
}

const dayToDate = (day: string | null | undefined) => (day ? new Date(`${day}T12:00:00Z`) : null);

/** Admin edit of the invoice's free fields (description, reference, dates). */
export async function updateInvoice({ db, auth, invoiceId, patch }: { db: Db; auth: AuthContext; invoiceId: string; patch: UpdateInvoiceRequest }) {
  return db.transaction(async (tx) => {
    const invoice = await repo.lockInvoice(tx, invoiceId);
    if (!invoice) throw new AppError('NOT_FOUND', 'Facture introuvable');
    const set: Partial<typeof invoices.$inferInsert> = {};
    if (patch.description !== undefined) set.description = patch.description || null;
    if (patch.reference !== undefined) set.reference = patch.reference;
    if (patch.invoiceDate !== undefined) set.invoiceDate = dayToDate(patch.invoiceDate);
    if (patch.dueDate !== undefined) set.dueDate = dayToDate(patch.dueDate);
    if (Object.keys(set).length > 0) {
      await tx.update(invoices).set(set).where(eq(invoices.id, invoice.id));
      await audit(tx, {
        actorUserId: auth.userId,
        action: 'invoice.update',
        entity: 'invoice',
        entityId: invoice.id,
        before: { description: invoice.description, reference: invoice.reference, invoiceDate: iso(invoice.invoiceDate), dueDate: iso(invoice.dueDate) },
        after: { ...set, invoiceDate: set.invoiceDate === undefined ? undefined : iso(set.invoiceDate ?? null), dueDate: set.dueDate === undefined ? undefined : iso(set.dueDate ?? null) },
      });
    }
    return adminInvoiceById(tx, invoice.id);
  });
}

/* ---------------------------------------------------------------- CSV export ---------------------------------------------------------------- */

export const CSV_EXPORT_MAX_ROWS = 10_000;

const csvEuros = (cents: number | null | undefined) => (cents === null || cents === undefined ? '' : (cents / 100).toFixed(2).replace('.', ','));

/** The filtered invoices with their latest transfer, for the accountant (French Excel: BOM, ";" and decimal commas). */
export async function exportInvoicesCsv({ db, filters }: { db: Db; filters: AdminInvoiceFilters }): Promise<string> {
  const rows = await repo.exportAdminInvoices(db, filters, CSV_EXPORT_MAX_ROWS);
  const header = [
    'Référence facture',
    'Technicien',
    'Entreprise',
    'Mission',
    'Statut',
    'Date facture',
    'Montant initial (€ HT)',
    'Montant validé (€ HT)',
    'Progression',
    'Statut virement',
    'Référence virement',
    'Date virement',
    'Montant virement (€)',
  ];
  const lines: CsvCell[][] = [header];
  for (const row of rows) {
    lines.push(
      [
        row.reference,
        `${row.technicianFirstName} ${row.technicianLastName}`.trim(),
        row.companyName,
        row.missionTitle,
        invoiceDisplayStatus(row.status, row.transferStatus ?? undefined),
        formatDate(row.invoiceDate),
        csvEuros(row.initialAmountCents),
        csvEuros(row.validatedAmountCents),
        row.progression,
        row.transferStatus ?? '',
        row.transferRef ?? '',
        formatDate(row.transferDate),
        csvEuros(row.transferAmountCents),
      ],
    );
  }
  return buildCsv(lines);
}
