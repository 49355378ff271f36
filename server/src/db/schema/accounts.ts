import { sql } from 'drizzle-orm';
import { boolean, check, doublePrecision, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { TECHNICIAN_STATUSES, USER_ROLES } from '@maillon/common/enums';
import { FORMATION_NOT_DONE } from '@maillon/common/constants';
import { createdAt, id, searchText, sqlList, updatedAt } from './_columns';

export const users = pgTable(
  'users',
  {
    id: id(),
    email: text().notNull().unique(),
    passwordHash: text().notNull(),
    role: text().notNull(),
    isActive: boolean().notNull().default(true),
    createdAt: createdAt(),
  },
  () => [check('users_role_check', sql.raw(`role in (${sqlList(USER_ROLES)})`))],
);

export const technicians = pgTable(
  'technicians',
  {
    id: id(),
    userId: uuid()
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: 'cascade' }),
    firstName: text().notNull(),
    lastName: text().notNull(),
    email: text().notNull(),
    phone: text(),
    address: text(),
    city: text(),
    postalCode: text(),
    country: text().notNull().default('France'),
    departments: text().array().notNull().default(sql`'{}'::text[]`),
    iban: text(),
    /**
     * The only part of the IBAN an answer shows (toTechnician): its last four characters, spaces left out, null without
     * one. Kept in the row so a page PostgreSQL writes as JSON shows it by the same rule (decision 050).
     */
    ibanLast4: text().generatedAlwaysAs(sql`nullif(right(regexp_replace(coalesce(iban, ''), '\\s', '', 'g'), 4), '')`),
    siret: text(),
    companyName: text(),
    status: text().notNull().default('pending'),
    formationCompleted: boolean().notNull().default(false),
    formationStatus: text().notNull().default(FORMATION_NOT_DONE),
    totalEarningsCents: integer().notNull().default(0),
    completedMissions: integer().notNull().default(0),
    preferredRelayPoint: text(),
    identityDocumentFileId: uuid(),
    cvFileId: uuid(),
    comments: text(),
    latitude: doublePrecision(),
    longitude: doublePrecision(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** The admin search's text: the first name again after the last, so « Prénom Nom » and « Nom Prénom » are both in it. */
    searchText: searchText(['first_name', 'last_name', 'first_name', 'email', 'company_name']),
  },
  (t) => [
    check('technicians_status_check', sql.raw(`status in (${sqlList(TECHNICIAN_STATUSES)})`)),
    check('technicians_departments_check', sql`cardinality(${t.departments}) <= 3`),
    // A sub-tab's page in the admin's order (newest first, then id; decision 031) walks the index and stops after the page;
    // moderation's oldest first reads it backwards. NULLS FIRST is what `order by created_at desc` means.
    index('technicians_status_created_idx').on(t.status, t.createdAt.desc().nullsFirst(), t.id),
    index('technicians_departments_idx').using('gin', t.departments),
    index('technicians_email_idx').on(t.email),
    // The admin's technician pickers by name (lib/technician-options.ts): an empty search walks it and stops at its page.
    index('technicians_name_idx').on(t.lastName, t.firstName, t.id),
    index('technicians_search_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')),
  ],
);

/** Uploaded files: stored under a random key in the upload store, never served statically. */
export const storedFiles = pgTable(
  'stored_files',
  {
    id: id(),
    technicianId: uuid().references(() => technicians.id, { onDelete: 'cascade' }),
    kind: text().notNull(),
    storageKey: text().notNull().unique(),
    originalName: text().notNull(),
    mimeType: text().notNull(),
    size: integer().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('stored_files_kind_check', sql.raw(`kind in ('identity', 'cv', 'invoice', 'visit-photo', 'signature', 'visit-report')`)),
    index('stored_files_technician_idx').on(t.technicianId),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text().primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    absoluteExpiresAt: timestamp({ withTimezone: true }).notNull(),
    userAgent: text(),
    ip: text(),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    tokenHash: text().primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('password_reset_tokens_user_idx').on(t.userId)],
);

/** Fixed-window counters for rate limits, shared by every server instance. */
export const rateLimits = pgTable('rate_limits', {
  key: text().primaryKey(),
  windowStart: timestamp({ withTimezone: true }).notNull(),
  count: integer().notNull(),
});

export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    actorUserId: uuid(),
    action: text().notNull(),
    entity: text().notNull(),
    entityId: text(),
    before: text(),
    after: text(),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_created_idx').on(t.createdAt)],
);
