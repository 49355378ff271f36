import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { CONSUMABLE_KINDS } from '@maillon/common/enums';
import { createdAt, id, sqlList, updatedAt } from './_columns';
import { devices } from './devices';
import { missionBatches, missions } from './missions';
import { shipments } from './work';

/**
 * The reference consumables of each defibrillator model (issue 20): which item of the shipment list replaces its
 * battery, adult electrodes or paediatric electrodes. Matched to a device by manufacturer and model, case and spaces
 * aside (model_key). Seeded from the reference list; the admin edits it.
 */
export const modelConsumables = pgTable(
  'model_consumables',
  {
    id: id(),
    manufacturer: text().notNull(),
    model: text().notNull(),
    /** lower(manufacturer) || ' - ' || lower(model), spaces collapsed: what a device's own key is compared with. */
    modelKey: text().notNull(),
    kind: text().notNull(),
    itemLabel: text().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('model_consumables_kind_check', sql.raw(`kind in (${sqlList(CONSUMABLE_KINDS)})`)),
    uniqueIndex('model_consumables_model_kind_idx').on(t.modelKey, t.kind),
  ],
);

/** Réglages of the parts (issue 20): one row (id = 1). */
export const partsSettings = pgTable(
  'parts_settings',
  {
    id: integer().primaryKey().default(1),
    /** A consumable expiring before the visit day + this margin is replaced. */
    expiryMarginDays: integer().notNull().default(90),
    /** The lot's parcel should be shipped this many days before its first planned visit. */
    shipDaysBeforeVisit: integer().notNull().default(7),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('parts_settings_single_check', sql`${t.id} = 1`),
    check('parts_settings_margin_check', sql`${t.expiryMarginDays} between 0 and 730`),
    check('parts_settings_ship_days_check', sql`${t.shipDaysBeforeVisit} between 0 and 90`),
  ],
);

/**
 * The parcel created from a lot's proposal: at most one live link per lot (the unique index makes « Créer le colis »
 * idempotent even across instances; the lot's row lock orders concurrent calls).
 */
export const lotPartShipments = pgTable(
  'lot_part_shipments',
  {
    batchId: uuid()
      .primaryKey()
      .references(() => missionBatches.id, { onDelete: 'cascade' }),
    shipmentId: uuid()
      .notNull()
      .references(() => shipments.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('lot_part_shipments_shipment_idx').on(t.shipmentId)],
);

/** Which device each part of a parcel is for: one row per (parcel, visit, consumable kind). */
export const shipmentParts = pgTable(
  'shipment_parts',
  {
    id: id(),
    shipmentId: uuid()
      .notNull()
      .references(() => shipments.id, { onDelete: 'cascade' }),
    missionId: uuid()
      .notNull()
      .references(() => missions.id, { onDelete: 'cascade' }),
    deviceId: uuid().references(() => devices.id, { onDelete: 'set null' }),
    kind: text().notNull(),
    itemLabel: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('shipment_parts_kind_check', sql.raw(`kind in (${sqlList(CONSUMABLE_KINDS)})`)),
    unique('shipment_parts_unique').on(t.shipmentId, t.missionId, t.kind),
    index('shipment_parts_mission_idx').on(t.missionId),
  ],
);

/**
 * What Expéditions lists of each lot's proposal, kept per lot (decision 060): the parts to send and the dates to check
 * of the visits still to do, and the first planned visit. Triggers on devices, missions and the technicians' progress
 * raise `version` in the transaction of the write; a read recomputes a lot whose kept figures are of an older version,
 * or of another day, recruit, deadline or parts reference (`kept_key`), and keeps them only if the version did not move
 * meanwhile. So a read after a write recomputes that lot alone, on any instance.
 */
export const lotPartsKept = pgTable('lot_parts_kept', {
  batchId: uuid()
    .primaryKey()
    .references(() => missionBatches.id, { onDelete: 'cascade' }),
  /** Raised by the triggers each time something the figures are computed from changes. */
  version: bigint({ mode: 'number' }).notNull().default(0),
  /** The version the kept figures were computed at; null: none kept yet. */
  keptVersion: bigint({ mode: 'number' }),
  /** The day, recruit, deadline and parts reference (margin and consumables) they were computed for. */
  keptKey: text(),
  itemCount: integer().notNull().default(0),
  toCheckCount: integer().notNull().default(0),
  /** The first visit still to do, a day in France (YYYY-MM-DD). */
  firstVisitDay: text(),
});
