import { sql } from 'drizzle-orm';
import { boolean, check, date, doublePrecision, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { DEVICE_ACCESS, DEVICE_STATES } from '@maillon/common/enums';
import { createdAt, id, searchText, sqlList, updatedAt } from './_columns';

/**
 * The device registry (Parc DAE): one row per physical defibrillator, keyed by its normalised serial number
 * (common/src/device-rules.ts normalizeSerial), with what Géo'DAE and the maintenance label need. Missions point to it
 * (missions.device_id); visit reports update its state and expiry dates (docs/decisions/024).
 */
export const devices = pgTable(
  'devices',
  {
    id: id(),
    /** As first written (trimmed); serialKey is what identifies the device. */
    serialNumber: text().notNull(),
    serialKey: text().notNull(),
    manufacturer: text(),
    model: text(),
    siteName: text(),
    address: text(),
    postalCode: text(),
    city: text(),
    latitude: doublePrecision(),
    longitude: doublePrecision(),
    access: text(),
    freeAccess: boolean(),
    accessFloor: text(),
    accessDetails: text(),
    /** Géo'DAE dispo_horaires: OpenStreetMap opening_hours, restricted (device-rules checkOpeningHours). */
    openingHours: text(),
    availabilityDetails: text(),
    sitePhone: text(),
    siteEmail: text(),
    operatorName: text(),
    operatorSiren: text(),
    operatorPhone: text(),
    operatorEmail: text(),
    functionalState: text().notNull().default('Inconnu'),
    batteryExpiry: date({ mode: 'string' }),
    adultPadsExpiry: date({ mode: 'string' }),
    pediatricPadsPresent: boolean(),
    pediatricPadsExpiry: date({ mode: 'string' }),
    installedOn: date({ mode: 'string' }),
    lastMaintenanceOn: date({ mode: 'string' }),
    maintenanceIntervalMonths: integer().notNull().default(12),
    nextMaintenanceDue: date({ mode: 'string' }),
    /** The day of the latest visit report applied: an older report saved later never overwrites a newer one. */
    lastReportOn: date({ mode: 'string' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** The registry search's text: serial, site, address, commune, manufacturer, model, exploitant. */
    searchText: searchText(['serial_number', 'serial_key', 'site_name', 'address', 'postal_code', 'city', 'manufacturer', 'model', 'operator_name']),
  },
  (t) => [
    uniqueIndex('devices_serial_key_idx').on(t.serialKey),
    check('devices_state_check', sql.raw(`functional_state in (${sqlList(DEVICE_STATES)})`)),
    check('devices_access_check', sql.raw(`access is null or access in (${sqlList(DEVICE_ACCESS)})`)),
    check('devices_interval_check', sql`${t.maintenanceIntervalMonths} between 1 and 60`),
    index('devices_state_idx').on(t.functionalState),
    index('devices_battery_idx').on(t.batteryExpiry),
    index('devices_adult_pads_idx').on(t.adultPadsExpiry),
    index('devices_pediatric_pads_idx').on(t.pediatricPadsExpiry).where(sql`pediatric_pads_present`),
    index('devices_next_maintenance_idx').on(t.nextMaintenanceDue),
    // The registry's order (soonest due first, then the serial key): exactly devices.repository nextDueExpression, so a
    // page walks the index and stops (decision 029).
    index('devices_next_due_idx').on(
      sql`least(${t.batteryExpiry}, ${t.adultPadsExpiry}, case when ${t.pediatricPadsPresent} then ${t.pediatricPadsExpiry} end, ${t.nextMaintenanceDue})`,
      t.serialKey,
    ),
    index('devices_last_maintenance_idx').on(t.lastMaintenanceOn),
    index('devices_search_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')),
  ],
);
