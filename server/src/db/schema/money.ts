import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { EMAIL_STATUSES, INVOICE_STATUSES, TRANSFER_STATUSES } from '@maillon/common/enums';
import { DEFAULT_PROGRESSION, DEFAULT_REFERENCE } from '@maillon/common/constants';
import { createdAt, id, sqlList, updatedAt } from './_columns';
import { storedFiles, technicians } from './accounts';
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
  },
  (t) => [
    check('invoices_status_check', sql.raw(`status in (${sqlList(INVOICE_STATUSES)})`)),
    index('invoices_technician_idx').on(t.technicianId, t.status),
    index('invoices_status_idx').on(t.status, t.createdAt),
    index('invoices_created_idx').on(t.createdAt, t.id),
    uniqueIndex('invoices_batch_technician_idx').on(t.batchId, t.technicianId),
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('invoices_files_invoice_idx').on(t.invoiceId), index('invoices_files_technician_idx').on(t.technicianId)],
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
    // A submitted invoice has at most one live transfer: a retried submission can never pay twice.
    uniqueIndex('transfers_one_live_per_invoice_idx')
      .on(t.invoiceId)
      .where(sql`status <> 'Refus'`),
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
