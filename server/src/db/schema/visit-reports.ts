import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { VISIT_OUTCOMES } from '@maillon/common/enums';
import { createdAt, id, sqlList, updatedAt } from './_columns';
import { storedFiles, technicians } from './accounts';
import { devices } from './devices';
import { missions } from './missions';

/**
 * A technician's visit report on one device (mission): its last complete version in columns, the draft being typed
 * on top of it in `draft` (autosave), and one row per complete version in visit_report_versions with its stored PV.
 * The id is made by the client, so a replayed save finds the same row (docs/decisions/024).
 */
export const visitReports = pgTable(
  'visit_reports',
  {
    id: uuid().primaryKey(),
    missionId: uuid()
      .notNull()
      .references(() => missions.id, { onDelete: 'cascade' }),
    technicianId: uuid()
      .notNull()
      .references(() => technicians.id, { onDelete: 'cascade' }),
    deviceId: uuid().references(() => devices.id, { onDelete: 'set null' }),
    /** Number of complete versions saved; 0 while only a draft exists. */
    version: integer().notNull().default(0),
    draft: jsonb(),
    draftUpdatedAt: timestamp({ withTimezone: true }),
    visitedAt: timestamp({ withTimezone: true }),
    outcome: text(),
    checklist: jsonb().notNull().default(sql`'{}'::jsonb`),
    batteryExpiry: date({ mode: 'string' }),
    adultPadsExpiry: date({ mode: 'string' }),
    pediatricPadsPresent: boolean(),
    pediatricPadsExpiry: date({ mode: 'string' }),
    consumablesReplaced: text().array().notNull().default(sql`'{}'::text[]`),
    observations: text(),
    signerName: text(),
    signedAt: timestamp({ withTimezone: true }),
    signatureFileId: uuid().references(() => storedFiles.id, { onDelete: 'set null' }),
    unsignedReason: text(),
    fingerprint: text(),
    pdfFileId: uuid().references(() => storedFiles.id, { onDelete: 'set null' }),
    finalizedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('visit_reports_mission_technician_unique').on(t.missionId, t.technicianId),
    check('visit_reports_outcome_check', sql.raw(`outcome is null or outcome in (${sqlList(VISIT_OUTCOMES)})`)),
    index('visit_reports_technician_idx').on(t.technicianId),
    index('visit_reports_device_idx').on(t.deviceId),
  ],
);

/** Photos of a report, each with the id the phone gave it; stored resized and without metadata (stored_files). */
export const visitReportPhotos = pgTable(
  'visit_report_photos',
  {
    id: uuid().primaryKey(),
    reportId: uuid()
      .notNull()
      .references(() => visitReports.id, { onDelete: 'cascade' }),
    fileId: uuid()
      .notNull()
      .references(() => storedFiles.id, { onDelete: 'cascade' }),
    sha256: text().notNull(),
    width: integer().notNull(),
    height: integer().notNull(),
    size: integer().notNull(),
    position: integer().notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('visit_report_photos_report_idx').on(t.reportId, t.position)],
);

/** Every complete version of a report: its fingerprint, its PV (stored) and where it was e-mailed. */
export const visitReportVersions = pgTable(
  'visit_report_versions',
  {
    id: id(),
    reportId: uuid()
      .notNull()
      .references(() => visitReports.id, { onDelete: 'cascade' }),
    version: integer().notNull(),
    fingerprint: text().notNull(),
    pdfFileId: uuid().references(() => storedFiles.id, { onDelete: 'set null' }),
    emailedTo: text(),
    createdAt: createdAt(),
  },
  (t) => [unique('visit_report_versions_unique').on(t.reportId, t.version)],
);
