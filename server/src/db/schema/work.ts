import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { APPLICATION_STATUSES, LEARNING_RESOURCE_TYPES, RECRUITED_APPLICATION_STATUSES, SHIPMENT_STATUSES } from '@maillon/common/enums';
import { DEFAULT_CARRIER, DEFAULT_REFERENCE } from '@maillon/common/constants';
import { createdAt, id, searchText, sqlList, updatedAt } from './_columns';
import { technicians } from './accounts';
import { missionBatches, missions } from './missions';

/**
 * The statuses of an application whose technician holds its lot (RECRUITED_APPLICATION_STATUSES) as SQL literals,
 * `'Recruté', 'Terminé'`: the predicate of applications_one_recruit_per_batch_idx. A statement's text writes them so,
 * not as parameters, for its generic plan to match that index's predicate.
 */
export const RECRUITED_STATUSES_SQL = sqlList(RECRUITED_APPLICATION_STATUSES);

export const applications = pgTable(
  'applications',
  {
    id: id(),
    missionId: uuid().references(() => missions.id, { onDelete: 'cascade' }),
    batchId: uuid().references(() => missionBatches.id, { onDelete: 'cascade' }),
    technicianId: uuid()
      .notNull()
      .references(() => technicians.id, { onDelete: 'cascade' }),
    status: text().notNull().default('En attente'),
    appliedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    adminComment: text(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('applications_status_check', sql.raw(`status in (${sqlList(APPLICATION_STATUSES)})`)),
    unique('applications_technician_batch_unique').on(t.technicianId, t.batchId),
    unique('applications_technician_mission_unique').on(t.technicianId, t.missionId),
    // Only one recruited (or finished) technician per lot, even under concurrent selections.
    uniqueIndex('applications_one_recruit_per_batch_idx')
      .on(t.batchId)
      .where(sql.raw(`status in (${RECRUITED_STATUSES_SQL})`)),
    index('applications_batch_idx').on(t.batchId, t.status),
    index('applications_technician_idx').on(t.technicianId, t.status),
    index('applications_mission_idx').on(t.missionId),
    // The admin's list of every application, most recent first (decision 040).
    index('applications_applied_idx').on(t.appliedAt, t.id),
  ],
);

export const revenus = pgTable(
  'revenus',
  {
    id: id(),
    technicianId: uuid()
      .notNull()
      .references(() => technicians.id, { onDelete: 'cascade' }),
    batchId: uuid().references(() => missionBatches.id, { onDelete: 'set null' }),
    status: text().notNull().default('Mission à terminer'),
    appliedAt: timestamp({ withTimezone: true }),
    amountCents: integer().notNull().default(0),
    reference: text().notNull().default(DEFAULT_REFERENCE),
    createdAt: createdAt(),
  },
  (t) => [index('revenus_technician_idx').on(t.technicianId), index('revenus_batch_idx').on(t.batchId)],
);

export const missionVisits = pgTable(
  'mission_visits',
  {
    id: id(),
    missionId: uuid()
      .notNull()
      .references(() => missions.id, { onDelete: 'cascade' }),
    technicianId: uuid()
      .notNull()
      .references(() => technicians.id, { onDelete: 'cascade' }),
    visitDate: timestamp({ withTimezone: true }),
    report: text(),
    status: text().notNull().default('pending'),
    createdAt: createdAt(),
  },
  (t) => [
    index('mission_visits_mission_idx').on(t.missionId),
    index('mission_visits_technician_idx').on(t.technicianId),
  ],
);

/** Messages on a lot: from the administrator to the technician, or the reverse. */
export const comments = pgTable(
  'comments',
  {
    id: id(),
    missionId: uuid().references(() => missions.id, { onDelete: 'cascade' }),
    batchId: uuid().references(() => missionBatches.id, { onDelete: 'cascade' }),
    technicianId: uuid()
      .notNull()
      .references(() => technicians.id, { onDelete: 'cascade' }),
    authorRole: text().notNull().default('admin'),
    content: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('comments_author_role_check', sql.raw(`author_role in ('admin', 'technician')`)),
    index('comments_batch_idx').on(t.batchId, t.technicianId),
    index('comments_mission_idx').on(t.missionId),
    index('comments_technician_idx').on(t.technicianId),
  ],
);

export const technicianMissionData = pgTable(
  'technician_mission_data',
  {
    id: id(),
    missionId: uuid()
      .notNull()
      .references(() => missions.id, { onDelete: 'cascade' }),
    technicianId: uuid()
      .notNull()
      .references(() => technicians.id, { onDelete: 'cascade' }),
    plannedVisitDate: timestamp({ withTimezone: true }),
    /** Time window of the planned visit (issue 19): morning, afternoon or range; null = the whole day. HH:MM times. */
    visitWindow: text(),
    visitStartTime: text(),
    visitEndTime: text(),
    isCompleted: boolean().notNull().default(false),
    technicianComments: text(),
    adminComments: text(),
    /** Place of the device in the technician's sorted round trip ("Trier pour économiser ma route"); null = unsorted. */
    routePosition: integer(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('technician_mission_data_unique').on(t.missionId, t.technicianId),
    index('technician_mission_data_technician_idx').on(t.technicianId),
    check(
      'technician_mission_data_visit_window_check',
      sql`(${t.visitWindow} is null and ${t.visitStartTime} is null and ${t.visitEndTime} is null) or (${t.visitWindow} in ('morning', 'afternoon', 'range') and ${t.visitStartTime} ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' and ${t.visitEndTime} ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' and ${t.visitStartTime} < ${t.visitEndTime})`,
    ),
    // The eve-of-visit reminders read tomorrow's visits.
    index('technician_mission_data_planned_idx').on(t.plannedVisitDate).where(sql`${t.plannedVisitDate} is not null and not ${t.isCompleted}`),
  ],
);

export const shipments = pgTable(
  'shipments',
  {
    id: id(),
    batchId: uuid().references(() => missionBatches.id, { onDelete: 'set null' }),
    technicianId: uuid().references(() => technicians.id, { onDelete: 'cascade' }),
    missionId: uuid().references(() => missions.id, { onDelete: 'set null' }),
    trackingNumber: text(),
    carrier: text().notNull().default(DEFAULT_CARRIER),
    status: text().notNull().default('draft'),
    shippedDate: timestamp({ withTimezone: true }),
    deliveredDate: timestamp({ withTimezone: true }),
    destination: text(),
    destinationPostalCode: text(),
    content: text(),
    missionTitle: text(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** The admin search's own text (a search also matches the technician's). */
    searchText: searchText(['mission_title', 'destination', 'content', 'tracking_number']),
  },
  (t) => [
    check('shipments_status_check', sql.raw(`status in (${sqlList(SHIPMENT_STATUSES)})`)),
    index('shipments_technician_idx').on(t.technicianId, t.status),
    index('shipments_batch_idx').on(t.batchId),
    index('shipments_status_idx').on(t.status, t.createdAt),
    index('shipments_created_idx').on(t.createdAt, t.id),
    index('shipments_search_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')),
  ],
);

export const learningResources = pgTable(
  'learning_resources',
  {
    id: id(),
    title: text().notNull(),
    description: text().notNull(),
    type: text().notNull().default('document'),
    url: text().notNull(),
    duration: integer(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('learning_resources_type_check', sql.raw(`type in (${sqlList(LEARNING_RESOURCE_TYPES)})`)),
    check('learning_resources_duration_check', sql`${t.duration} is null or ${t.duration} >= 1`),
  ],
);

export const resourceViews = pgTable(
  'resource_views',
  {
    id: id(),
    resourceId: uuid()
      .notNull()
      .references(() => learningResources.id, { onDelete: 'cascade' }),
    technicianId: uuid()
      .notNull()
      .references(() => technicians.id, { onDelete: 'cascade' }),
    viewedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('resource_views_unique').on(t.resourceId, t.technicianId),
    index('resource_views_technician_idx').on(t.technicianId),
    // A module's readers, most recent first (admin library): the page is the index's first entries, not a sort of them all.
    index('resource_views_resource_recent_idx').on(t.resourceId, t.viewedAt.desc().nullsFirst(), t.technicianId),
  ],
);

