import { and, asc, desc, eq, gte, inArray, isNotNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { RECRUITED_APPLICATION_STATUSES } from '@maillon/common/enums';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { applications, devices, missionBatches, missions, RECRUITED_STATUSES_SQL, storedFiles, technicianMissionData, technicians, visitReports } from '../../db/schema';
import { allRowsCountSql, devicesNeedingAttentionCountSql } from '../../lib/row-counts';
import { searchedTable } from '../../lib/substring-search';
import { pageSql, pageText, searchPageText, whereAll, type SearchPageText } from '../../lib/pagination';

/** Drizzle queries of the device registry, explicit columns only. */

/**
 * The soonest of a device's dates (battery, adult electrodes, paediatric electrodes when present, next maintenance).
 * Exactly the expression of the index devices_next_due_idx (migration 0012).
 */
export const nextDueExpression = sql<string | null>`least(${devices.batteryExpiry}, ${devices.adultPadsExpiry}, case when ${devices.pediatricPadsPresent} then ${devices.pediatricPadsExpiry} end, ${devices.nextMaintenanceDue})`;

/**
 * Needs attention (the Parc DAE badge): out of order, or a date past or within the window — except a device removed
 * for good, which no longer needs anything.
 */
export function attentionCondition(limitDay: string): SQL {
  return sql`(${devices.functionalState} = 'Hors service' or (${devices.functionalState} <> 'Supprimé définitivement' and ${nextDueExpression} <= ${limitDay}::date))`;
}

export const deviceColumns = {
  id: devices.id,
  serialNumber: devices.serialNumber,
  serialKey: devices.serialKey,
  manufacturer: devices.manufacturer,
  model: devices.model,
  siteName: devices.siteName,
  address: devices.address,
  postalCode: devices.postalCode,
  city: devices.city,
  latitude: devices.latitude,
  longitude: devices.longitude,
  access: devices.access,
  freeAccess: devices.freeAccess,
  accessFloor: devices.accessFloor,
  accessDetails: devices.accessDetails,
  openingHours: devices.openingHours,
  availabilityDetails: devices.availabilityDetails,
  sitePhone: devices.sitePhone,
  siteEmail: devices.siteEmail,
  operatorName: devices.operatorName,
  operatorSiren: devices.operatorSiren,
  operatorPhone: devices.operatorPhone,
  operatorEmail: devices.operatorEmail,
  functionalState: devices.functionalState,
  batteryExpiry: devices.batteryExpiry,
  adultPadsExpiry: devices.adultPadsExpiry,
  pediatricPadsPresent: devices.pediatricPadsPresent,
  pediatricPadsExpiry: devices.pediatricPadsExpiry,
  installedOn: devices.installedOn,
  lastMaintenanceOn: devices.lastMaintenanceOn,
  maintenanceIntervalMonths: devices.maintenanceIntervalMonths,
  nextMaintenanceDue: devices.nextMaintenanceDue,
  lastReportOn: devices.lastReportOn,
  createdAt: devices.createdAt,
  updatedAt: devices.updatedAt,
};
export type DeviceRow = { [K in keyof typeof deviceColumns]: (typeof devices.$inferSelect)[K] };
export type DeviceInsert = typeof devices.$inferInsert;

const withDue = (limitDay: string) => ({
  ...deviceColumns,
  nextDueOn: sql<string | null>`${nextDueExpression}::text`,
  needsAttention: sql<boolean>`${attentionCondition(limitDay)}`,
});

export async function findDevice(db: DbOrTx, id: string, limitDay: string) {
  const [row] = await db.select(withDue(limitDay)).from(devices).where(eq(devices.id, id)).limit(1);
  return row ?? null;
}

export async function lockDevice(tx: DbOrTx, id: string): Promise<void> {
  await tx.execute(sql`select id from devices where id = ${id} for update`);
}

export async function findDeviceByKey(db: DbOrTx, serialKey: string) {
  const [row] = await db.select(deviceColumns).from(devices).where(eq(devices.serialKey, serialKey)).limit(1);
  return row ?? null;
}

/** Inserts the device unless its key exists (concurrent creations agree on one row); returns the key's row. */
export async function insertDeviceIfAbsent(tx: DbOrTx, values: DeviceInsert) {
  await tx.insert(devices).values(values).onConflictDoNothing({ target: devices.serialKey });
  const row = await findDeviceByKey(tx, values.serialKey);
  return row!;
}

export async function insertDevice(tx: DbOrTx, values: DeviceInsert) {
  const [row] = await tx.insert(devices).values(values).onConflictDoNothing({ target: devices.serialKey }).returning({ id: devices.id });
  return row ?? null;
}

export async function updateDevice(tx: DbOrTx, id: string, values: Partial<DeviceInsert>): Promise<void> {
  await tx.update(devices).set({ ...values, updatedAt: new Date() }).where(eq(devices.id, id));
}

export async function setMissionDevice(tx: DbOrTx, missionId: string, deviceId: string | null): Promise<void> {
  await tx.update(missions).set({ deviceId }).where(eq(missions.id, missionId));
}

export async function findMissionForDevice(db: DbOrTx, missionId: string) {
  const [row] = await db
    .select({
      id: missions.id,
      serialNumber: missions.serialNumber,
      defibrillatorModel: missions.defibrillatorModel,
      clientName: missions.clientName,
      location: missions.location,
      postalCode: missions.postalCode,
      city: missions.city,
      latitude: missions.latitude,
      longitude: missions.longitude,
      telSite: missions.telSite,
      emailSite: missions.emailSite,
      deviceId: missions.deviceId,
    })
    .from(missions)
    .where(eq(missions.id, missionId))
    .limit(1);
  return row ?? null;
}

export interface DeviceListFilters {
  search?: string | undefined;
  state?: string | undefined;
  /** Only devices with the chosen date on or before this day (expired: yesterday). */
  dueBefore?: string | undefined;
  dueSubject: 'any' | 'battery' | 'pads' | 'maintenance';
  attention?: boolean | undefined;
  limit: number;
  offset: number;
}

function dueCondition(subject: DeviceListFilters['dueSubject'], day: string): SQL {
  switch (subject) {
    case 'battery':
      return lte(devices.batteryExpiry, day);
    case 'pads':
      return or(lte(devices.adultPadsExpiry, day), and(eq(devices.pediatricPadsPresent, true), lte(devices.pediatricPadsExpiry, day)))!;
    case 'maintenance':
      return lte(devices.nextMaintenanceDue, day);
    case 'any':
      return sql`${nextDueExpression} <= ${day}::date`;
  }
}

/**
 * A recruited (or finished) technician's visits marked Effectué without a complete report of theirs: the spec's plain
 * toggle, shown as « sans rapport ». Of the device `p` of a page.
 */
const withoutReportCountSql = sql.raw(`(
  select count(*) from missions wm
  join applications wa on wa.batch_id = wm.batch_id and wa.status in (${RECRUITED_STATUSES_SQL})
  join technician_mission_data wd on wd.mission_id = wm.id and wd.technician_id = wa.technician_id and wd.is_completed
  where wm.device_id = p."id"
    and not exists (select 1 from visit_reports wr where wr.mission_id = wm.id and wr.technician_id = wa.technician_id and wr.version > 0)
)`);

/** The list's filters but its search (a search goes to searchPageText, which takes these beside it). */
function listConditions(filters: DeviceListFilters, limitDay: string): SQL[] {
  const where: SQL[] = [];
  if (filters.state) where.push(eq(devices.functionalState, filters.state));
  if (filters.dueBefore) where.push(dueCondition(filters.dueSubject, filters.dueBefore));
  if (filters.attention) where.push(attentionCondition(limitDay));
  return where;
}

/**
 * Static SQL (no parameter) written once as the dialect writes it, columns in snake_case as the client's: a page's
 * statement is then a few chunks for Drizzle to join on each request instead of one per column.
 */
const rendered = (query: SQL) => sql.raw(new PgDialect({ casing: 'snake_case' }).sqlToQuery(query).sql);

/**
 * A device's columns as the list's JSON names them, the values toDevice gives: the times as `toISOString`
 * (maillon_json_time), the days as PostgreSQL writes a date (YYYY-MM-DD, as the query builder reads it), without the
 * day of the last report (not part of Device).
 */
const deviceJsonColumns = rendered(
  sql.join(
    Object.entries(deviceColumns)
      .filter(([name]) => name !== 'lastReportOn')
      .map(([name, column]) =>
        name === 'createdAt' || name === 'updatedAt' ? sql`maillon_json_time(${column}) as ${sql.identifier(name)}` : sql`${column} as ${sql.identifier(name)}`,
      ),
    sql`, `,
  ),
);
const nextDueSql = rendered(nextDueExpression);
const pageOrder = rendered(sql`${nextDueExpression} asc nulls last, ${devices.serialKey} asc`);

/**
 * One page of the registry, soonest due first, and its total. The page walks devices_next_due_idx (the same expression,
 * then the serial key) and stops after the page (decision 029); its visits are counted for its devices only, and it
 * comes back as the JSON text the route sends (decision 049): each device with the keys of deviceListItemSchema and
 * the values toDevice gives (`devices-list.test.ts` compares them with getDevice's and parses the page strictly). The
 * total: without a filter, or with « à surveiller » alone, the counts the database keeps (row_counts: a key per state
 * or attention day, decision 027, the same read as the Parc DAE badge); else a count, in the page's statement. A search
 * counts the devices it finds (trigram index) up to TOTAL_CAP + 1 and sorts them for the page; past the cap, its page
 * walks the index with the search as a filter (searchPageText, decision 042).
 */
export async function listDevices(db: DbOrTx, filters: DeviceListFilters, limitDay: string): Promise<SearchPageText> {
  const page = (conditions: SQL[]) => sql`
    coalesce((select json_agg(page order by page."nextDueOn" asc nulls last, page."serialKey") from (
      select p.*, (select count(*) from missions vm where vm.device_id = p."id") as "visitCount", ${withoutReportCountSql} as "withoutReportCount"
      from (
        select ${deviceJsonColumns}, ${nextDueSql}::text as "nextDueOn", coalesce(${attentionCondition(limitDay)}, false) as "needsAttention"
        from devices ${whereAll(conditions)} order by ${pageOrder} ${pageSql(filters.limit, filters.offset)}
      ) p
    ) page), '[]')`;
  const others = listConditions(filters, limitDay);
  const { search } = filters;
  if (search) {
    return searchPageText(db, { ...searchedTable('devices', search, others), pageJson: page }, filters);
  }
  const total =
    filters.state || filters.dueBefore
      ? sql`(select count(*)::int from devices ${whereAll(others)})`
      : filters.attention
        ? devicesNeedingAttentionCountSql(limitDay)
        : allRowsCountSql('devices');
  return pageText(db, total, page(others));
}

/** A device's missions, newest first, with the lot, its recruit and the recruit's progress. */
export async function listDeviceMissions(db: DbOrTx, deviceId: string) {
  return db
    .select({
      missionId: missions.id,
      missionTitle: missions.title,
      missionStatus: missions.status,
      visitType: missions.visitType,
      batchId: missions.batchId,
      batchTitle: missionBatches.title,
      recruitId: applications.technicianId,
      recruitFirstName: technicians.firstName,
      recruitLastName: technicians.lastName,
      plannedVisitDate: technicianMissionData.plannedVisitDate,
      isCompleted: technicianMissionData.isCompleted,
      createdAt: missions.createdAt,
    })
    .from(missions)
    .leftJoin(missionBatches, eq(missionBatches.id, missions.batchId))
    .leftJoin(applications, and(eq(applications.batchId, missions.batchId), inArray(applications.status, [...RECRUITED_APPLICATION_STATUSES])))
    .leftJoin(technicians, eq(technicians.id, applications.technicianId))
    .leftJoin(
      technicianMissionData,
      and(eq(technicianMissionData.missionId, missions.id), eq(technicianMissionData.technicianId, applications.technicianId)),
    )
    .where(eq(missions.deviceId, deviceId))
    .orderBy(desc(missions.createdAt), desc(missions.id))
    .limit(200);
}

/** Every report written for these missions, newest first. */
export async function listMissionReports(db: DbOrTx, missionIds: string[]) {
  if (missionIds.length === 0) return [];
  return db
    .select({
      id: visitReports.id,
      missionId: visitReports.missionId,
      technicianId: visitReports.technicianId,
      firstName: technicians.firstName,
      lastName: technicians.lastName,
      version: visitReports.version,
      outcome: visitReports.outcome,
      visitedAt: visitReports.visitedAt,
      finalizedAt: visitReports.finalizedAt,
      pdfFileId: visitReports.pdfFileId,
      updatedAt: visitReports.updatedAt,
    })
    .from(visitReports)
    .innerJoin(technicians, eq(technicians.id, visitReports.technicianId))
    .where(inArray(visitReports.missionId, missionIds))
    .orderBy(desc(visitReports.updatedAt));
}

/** Devices whose last maintenance lies in the range, for the Géo'DAE export. */
export async function listDevicesMaintainedBetween(db: DbOrTx, from: string, to: string) {
  return db
    .select(deviceColumns)
    .from(devices)
    .where(and(isNotNull(devices.lastMaintenanceOn), gte(devices.lastMaintenanceOn, from), lte(devices.lastMaintenanceOn, to)))
    .orderBy(asc(devices.lastMaintenanceOn), asc(devices.serialKey))
    .limit(20_000);
}

/** The registered devices of a lot, in the lot's order (oldest mission first). */
export async function listLotDevices(db: DbOrTx, batchId: string) {
  return db
    .select(deviceColumns)
    .from(missions)
    .innerJoin(devices, eq(devices.id, missions.deviceId))
    .where(eq(missions.batchId, batchId))
    .orderBy(asc(missions.createdAt), asc(missions.id))
    .limit(500);
}

export async function findBatch(db: DbOrTx, batchId: string) {
  const [row] = await db
    .select({ id: missionBatches.id, title: missionBatches.title, status: missionBatches.status, isSystem: missionBatches.isSystem })
    .from(missionBatches)
    .where(eq(missionBatches.id, batchId))
    .limit(1);
  return row ?? null;
}

export async function isRecruitOnBatch(db: DbOrTx, batchId: string, technicianId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: applications.id })
    .from(applications)
    .where(and(eq(applications.batchId, batchId), eq(applications.technicianId, technicianId), eq(applications.status, 'Recruté')))
    .limit(1);
  return Boolean(row);
}

export async function findStoredFile(db: DbOrTx, id: string) {
  const [row] = await db
    .select({ storageKey: storedFiles.storageKey, mimeType: storedFiles.mimeType, originalName: storedFiles.originalName, size: storedFiles.size })
    .from(storedFiles)
    .where(eq(storedFiles.id, id))
    .limit(1);
  return row ?? null;
}
