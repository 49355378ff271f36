import { sql } from 'drizzle-orm';
import { check, customType, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { id } from './_columns';
import { users } from './accounts';
import { emailOutbox } from './money';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/**
 * Background work that must run once whatever the number of server instances (lib/scheduler): a run is claimed by
 * one instance with a conditional update (due and not leased), leased for a bounded time, then released with its next
 * due time.
 */
export const scheduledTasks = pgTable('scheduled_tasks', {
  name: text().primaryKey(),
  nextRunAt: timestamp({ withTimezone: true }).notNull(),
  lockedBy: text(),
  lockedUntil: timestamp({ withTimezone: true }),
  lastStartedAt: timestamp({ withTimezone: true }),
  lastFinishedAt: timestamp({ withTimezone: true }),
  lastError: text(),
  runs: integer().notNull().default(0),
});

/**
 * Files attached to an outbox e-mail, written in the same transaction as the e-mail: small generated documents inline
 * (`content`), larger ones by reference to the file store (`storageKey`, a stored_files object). A `calendar` part is
 * sent as an iCalendar invitation (text/calendar with its METHOD) that mail clients offer to add.
 */
export const emailAttachments = pgTable(
  'email_attachments',
  {
    id: id(),
    emailId: uuid()
      .notNull()
      .references(() => emailOutbox.id, { onDelete: 'cascade' }),
    fileName: text().notNull(),
    contentType: text().notNull(),
    disposition: text().notNull().default('attachment'),
    content: bytea(),
    storageKey: text(),
    position: integer().notNull().default(0),
  },
  (t) => [
    check('email_attachments_disposition_check', sql`${t.disposition} in ('attachment', 'calendar')`),
    check('email_attachments_source_check', sql`(${t.content} is null) <> (${t.storageKey} is null)`),
    index('email_attachments_email_idx').on(t.emailId, t.position),
  ],
);

/**
 * Idempotency keys of writes (plugins/idempotency.ts, docs/decisions/023): one row per account and client key. A
 * `pending` row reserves the key while its request runs (until `lockedUntil`); a `done` row holds the answer to replay.
 * Rows older than 48 h are purged by a scheduled task. Not watched by the change feed (no cached answer reads it).
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text().notNull(),
    method: text().notNull(),
    path: text().notNull(),
    fingerprint: text().notNull(),
    state: text().notNull().default('pending'),
    lockedUntil: timestamp({ withTimezone: true }),
    responseStatus: integer(),
    responseType: text(),
    responseBody: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.key] }),
    check('idempotency_keys_state_check', sql`${t.state} in ('pending', 'done')`),
    index('idempotency_keys_created_idx').on(t.createdAt),
  ],
);
