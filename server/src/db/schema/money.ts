import { sql } from 'drizzle-orm';
import { bigint, boolean, check, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { EMAIL_STATUSES, E_INVOICE_FORMATS, INVOICE_STATUSES, PAYOUT_BATCH_STATUSES, PAYOUT_LINE_STATUSES, TRANSFER_STATUSES } from '@maillon/common/enums';
import type { StoredEInvoice } from '@maillon/common/schemas/e-invoice';
import { DEFAULT_PROGRESSION, DEFAULT_REFERENCE } from '@maillon/common/constants';
import { createdAt, id, searchText, sqlList, updatedAt } from './_columns';
import { storedFiles, technicians, users } from './accounts';
import { missionBatches } from './missions';

export const invoices = pgTable(
  'invoices',
  {
    id: id(),
    technicianId: uuid()
      .notNull()
      .references(() => technicians.id, { onDelete: 'cascade' }),
    batchId: uuid().references(() => missionBatches.id, { onDelete: 'set null' }),
    amountCents: integer().notNull().default(0),
    status: text().notNull().default('Mission à terminer'),
    invoiceDate: timestamp({ withTimezone: true }),
    dueDate: timestamp({ withTimezone: true }),
    paidDate: timestamp({ withTimezone: true }),
    /**
     * Whether one of its transfers is « Effectué »: kept by a trigger on transfers (migration 0040, decision 051), so the
     * admin's chips count the invoices from row_counts (the key of a paid invoice ends in `.paid`). Never written by the app.
     */
    hasPaidTransfer: boolean().notNull().default(false),
    invoiceNumber: text(),
    description: text(),
    missionTitle: text(),
    initialAmountCents: integer().notNull().default(0),
    validatedAmountCents: integer().notNull().default(0),
    batchPriceCents: integer().notNull().default(0),
    progression: text().notNull().default(DEFAULT_PROGRESSION),
    reference: text().notNull().default(DEFAULT_REFERENCE),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** The admin search's own text (a search also matches the technician's). */
    searchText: searchText(['reference', 'mission_title', 'description', 'invoice_number']),
  },
  (t) => [
    check('invoices_status_check', sql.raw(`status in (${sqlList(INVOICE_STATUSES)})`)),
    index('invoices_technician_idx').on(t.technicianId, t.status),
    index('invoices_status_idx').on(t.status, t.createdAt),
    index('invoices_created_idx').on(t.createdAt, t.id),
    uniqueIndex('invoices_batch_technician_idx').on(t.batchId, t.technicianId),
    index('invoices_search_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')),
  ],
);

export const invoicesFiles = pgTable(
  'invoices_files',
  {
    id: id(),
    invoiceId: uuid()
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    technicianId: uuid()
      .notNull()
      .references(() => technicians.id, { onDelete: 'cascade' }),
    reference: text().notNull(),
    fileId: uuid()
      .notNull()
      .references(() => storedFiles.id, { onDelete: 'restrict' }),
    amountCertifiedCents: integer().notNull(),
    /** 'factur-x' when the PDF carried EN 16931 XML that was read and checked; 'pdf' for a plain PDF (decision 021). */
    eInvoiceFormat: text().notNull().default('pdf'),
    /** The invoice number (BT-1, or the typed reference of a plain PDF), upper-cased: one submission per number. */
    invoiceNumberKey: text(),
    /** What the XML said (number, date, parties, totals in cents), shown to the admin beside the file. */
    eInvoice: jsonb().$type<StoredEInvoice>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('invoices_files_e_invoice_format_check', sql.raw(`e_invoice_format in (${sqlList(E_INVOICE_FORMATS)})`)),
    index('invoices_files_invoice_idx').on(t.invoiceId),
    index('invoices_files_technician_idx').on(t.technicianId),
    index('invoices_files_number_idx').on(t.technicianId, t.invoiceNumberKey),
  ],
);

export const transfers = pgTable(
  'transfers',
  {
    id: id(),
    batchId: uuid().references(() => missionBatches.id, { onDelete: 'set null' }),
    technicianId: uuid()
      .notNull()
      .references(() => technicians.id, { onDelete: 'cascade' }),
    invoiceId: uuid().references(() => invoices.id, { onDelete: 'set null' }),
    status: text().notNull().default('Enregistré'),
    transferDate: timestamp({ withTimezone: true }),
    invoiceRef: text().notNull(),
    transferRef: text(),
    bankAccountLast4: text(),
    amountCents: integer().notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('transfers_status_check', sql.raw(`status in (${sqlList(TRANSFER_STATUSES)})`)),
    index('transfers_technician_idx').on(t.technicianId, t.status),
    index('transfers_status_idx').on(t.status, t.createdAt),
    // The admin's transfers, most recent first, without a filter (decision 039).
    index('transfers_created_idx').on(t.createdAt, t.id),
    // The latest transfer of each invoice of the admin's page (decision 031).
    index('transfers_invoice_idx').on(t.invoiceId, t.createdAt, t.id),
    // Statements and the accounting export read the paid transfers of a period.
    index('transfers_paid_date_idx').on(t.status, t.transferDate),
    // A submitted invoice has at most one live transfer: a retried submission can never pay twice.
    uniqueIndex('transfers_one_live_per_invoice_idx')
      .on(t.invoiceId)
      .where(sql`status <> 'Refus'`),
  ],
);

/**
 * A SEPA credit transfer file (pain.001.001.03) the admin downloads for the bank: its header as written in the file
 * (message id = reference, creation time, execution date, debtor), so a second download gives the same bytes.
 */
export const payoutBatches = pgTable(
  'payout_batches',
  {
    id: id(),
    reference: text().notNull(),
    status: text().notNull().default('Préparé'),
    executionDate: date({ mode: 'string' }).notNull(),
    debtorName: text().notNull(),
    debtorIban: text().notNull(),
    debtorBic: text().notNull(),
    transferCount: integer().notNull(),
    totalCents: bigint({ mode: 'number' }).notNull(),
    createdByUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
    paidAt: timestamp({ withTimezone: true }),
    cancelledAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('payout_batches_status_check', sql.raw(`status in (${sqlList(PAYOUT_BATCH_STATUSES)})`)),
    uniqueIndex('payout_batches_reference_idx').on(t.reference),
    index('payout_batches_created_idx').on(t.createdAt, t.id),
  ],
);

/** One transfer of a batch: the creditor as written in the file (name, IBAN read when the batch was made). */
export const payoutBatchLines = pgTable(
  'payout_batch_lines',
  {
    id: id(),
    batchId: uuid()
      .notNull()
      .references(() => payoutBatches.id, { onDelete: 'cascade' }),
    lineNumber: integer().notNull(),
    // The line keeps everything the file says: a technician deleted later leaves the batch as the bank received it.
    transferId: uuid().references(() => transfers.id, { onDelete: 'set null' }),
    invoiceId: uuid().references(() => invoices.id, { onDelete: 'set null' }),
    technicianId: uuid().references(() => technicians.id, { onDelete: 'set null' }),
    creditorName: text().notNull(),
    creditorIban: text().notNull(),
    /** The IBAN on the profile no longer ends like the one the invoice was submitted with: shown to the admin. */
    ibanChanged: boolean().notNull().default(false),
    amountCents: integer().notNull(),
    remittance: text().notNull(),
    endToEndId: text().notNull(),
    status: text().notNull().default('À payer'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('payout_batch_lines_status_check', sql.raw(`status in (${sqlList(PAYOUT_LINE_STATUSES)})`)),
    uniqueIndex('payout_batch_lines_number_idx').on(t.batchId, t.lineNumber),
    // A transfer is in at most one batch that has not been cancelled: it can never be sent to the bank twice.
    uniqueIndex('payout_batch_lines_one_per_transfer_idx')
      .on(t.transferId)
      .where(sql`status <> 'Annulé'`),
    // The lines waiting for the bank (the payout candidates' total): a few open batches, whatever the history.
    index('payout_batch_lines_to_pay_idx')
      .on(t.transferId)
      .where(sql`status = 'À payer'`),
    index('payout_batch_lines_technician_idx').on(t.technicianId),
  ],
);

export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: id(),
    kind: text().notNull(),
    to: text().notNull(),
    subject: text().notNull(),
    text: text().notNull(),
    html: text(),
    status: text().notNull().default('pending'),
    attempts: integer().notNull().default(0),
    lastError: text(),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('email_outbox_status_check', sql.raw(`status in (${sqlList(EMAIL_STATUSES)})`)),
    index('email_outbox_pending_idx').on(t.status, t.nextAttemptAt),
  ],
);
