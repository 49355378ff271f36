import type { DeviceAccess, DeviceState, VisitOutcome } from '@maillon/common/enums';
import {
  addDaysToDay,
  addMonthsToDay,
  ATTENTION_WINDOW_DAYS,
  deviceSerialKey,
  MAINTAINED_OUTCOMES,
  MAINTENANCE_INTERVAL_DEFAULT_MONTHS,
  parisDay,
} from '@maillon/common/device-rules';
import type {
  CreateDeviceRequest,
  Device,
  DeviceDetail,
  DeviceListQuery,
  DeviceVisit,
  GeodaeExportCheck,
  GeodaeExportQuery,
  UpdateDeviceRequest,
} from '@maillon/common/schemas/devices';
import type { Config } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import { AppError, notFound } from '../../lib/app-error';
import { audit } from '../../lib/audit';
import type { AuthContext } from '../auth/auth.service';
import { buildDeviceLabelsPdf, type LabelDevice } from './device-label';
import * as repo from './devices.repository';
import { buildGeodaeCsv, toGeodaeRow, type GeodaeRow } from './geodae-export';
import type { SearchPageText } from '../../lib/pagination';

const DEVICE_NOT_FOUND = 'Défibrillateur introuvable';

/** What a visit (a job or a mission) knows about its device. */
export interface VisitDeviceData {
  serialNumber: string | null;
  defibrillatorModel: string | null;
  clientName: string | null;
  /** The visit's address line ("12 rue du Marché, 75011 Paris"). */
  location: string | null;
  postalCode: string | null;
  city: string | null;
  latitude: number | null;
  longitude: number | null;
  telSite: string | null;
  emailSite: string | null;
}

/** "Zoll - AED Plus" (the reference list's form) → manufacturer Zoll, model AED Plus; without " - " all of it is the model. */
export function splitModel(value: string | null): { manufacturer: string | null; model: string | null } {
  const text = value?.trim();
  if (!text) return { manufacturer: null, model: null };
  const at = text.indexOf(' - ');
  if (at < 0) return { manufacturer: null, model: text };
  return { manufacturer: text.slice(0, at).trim() || null, model: text.slice(at + 3).trim() || null };
}

/** The street part of an address line: "12 rue du Marché, 75011 Paris" → "12 rue du Marché" (migration 0012 does the same). */
export function streetFromLocation(location: string | null): string | null {
  const street = location?.replace(/,?\s*\d{5}(\s.*)?$/, '').trim();
  return street || null;
}

function fieldsFromVisit(visit: VisitDeviceData) {
  const { manufacturer, model } = splitModel(visit.defibrillatorModel);
  return {
    manufacturer,
    model,
    siteName: visit.clientName?.trim() || null,
    address: streetFromLocation(visit.location),
    postalCode: visit.postalCode,
    city: visit.city,
    latitude: visit.latitude,
    longitude: visit.longitude,
    sitePhone: visit.telSite?.trim() || null,
    siteEmail: visit.emailSite?.trim() || null,
  };
}

/**
 * The device of a visit, created when its normalised serial number is new. An existing device only gets the fields
 * it did not know yet: the registry is the administrator's (and the reports'), a later visit never overwrites it.
 * Returns null when the serial number cannot name a device (missing, or a placeholder).
 */
export async function findOrCreateDeviceForVisit(tx: DbOrTx, visit: VisitDeviceData): Promise<string | null> {
  const key = deviceSerialKey(visit.serialNumber);
  if (!key) return null;
  const fields = fieldsFromVisit(visit);
  const existing = await repo.findDeviceByKey(tx, key);
  if (!existing) {
    const row = await repo.insertDeviceIfAbsent(tx, { serialNumber: visit.serialNumber!.trim(), serialKey: key, ...fields });
    return row.id;
  }
  const blanks: Partial<repo.DeviceInsert> = {};
  for (const [name, value] of Object.entries(fields) as [keyof typeof fields, string | number | null][]) {
    if (value !== null && value !== undefined && (existing[name] === null || existing[name] === undefined)) (blanks as Record<string, unknown>)[name] = value;
  }
  // Coordinates go together: never a latitude from one visit and a longitude from another.
  if ((blanks.latitude === undefined) !== (blanks.longitude === undefined)) {
    delete blanks.latitude;
    delete blanks.longitude;
  }
  if (Object.keys(blanks).length > 0) await repo.updateDevice(tx, existing.id, blanks);
  return existing.id;
}

/** Points a mission to the device of its serial number (or to none), in the caller's transaction. */
export async function linkMissionToDevice(tx: DbOrTx, missionId: string): Promise<string | null> {
  const mission = await repo.findMissionForDevice(tx, missionId);
  return mission ? linkMissionRowToDevice(tx, mission) : null;
}

/** The fields of a mission its device comes from, and the device it points to now. */
export type MissionDeviceFields = NonNullable<Awaited<ReturnType<typeof repo.findMissionForDevice>>>;

/** linkMissionToDevice for a mission the caller has just written and holds (an update's `returning`): one read less. */
export async function linkMissionRowToDevice(tx: DbOrTx, mission: MissionDeviceFields): Promise<string | null> {
  const deviceId = await findOrCreateDeviceForVisit(tx, mission);
  if (deviceId !== mission.deviceId) await repo.setMissionDevice(tx, mission.id, deviceId);
  return deviceId;
}

/** Visits suggested for moderation (ingestion, CSV, Ajout Manuel, Modifier) make their devices known to the registry. */
export async function registerVisitDevices(
  tx: DbOrTx,
  visits: { serialNumber: string; defibrillatorModel: string; clientName: string; address: string; postalCode: string | null; city: string | null; latitude: number | null; longitude: number | null; telSite: string | null; emailSite: string | null }[],
): Promise<void> {
  for (const visit of visits) {
    await findOrCreateDeviceForVisit(tx, { ...visit, location: visit.address });
  }
}

const nullableString = (value: unknown) => (value === null || value === undefined ? null : String(value));

type DeviceWithDue = Awaited<ReturnType<typeof repo.findDevice>> & object;

function toDevice(row: DeviceWithDue): Device {
  return {
    id: row.id,
    serialNumber: row.serialNumber,
    serialKey: row.serialKey,
    manufacturer: row.manufacturer,
    model: row.model,
    siteName: row.siteName,
    address: row.address,
    postalCode: row.postalCode,
    city: row.city,
    latitude: row.latitude,
    longitude: row.longitude,
    access: row.access as DeviceAccess | null,
    freeAccess: row.freeAccess,
    accessFloor: row.accessFloor,
    accessDetails: row.accessDetails,
    openingHours: row.openingHours,
    availabilityDetails: row.availabilityDetails,
    sitePhone: row.sitePhone,
    siteEmail: row.siteEmail,
    operatorName: row.operatorName,
    operatorSiren: row.operatorSiren,
    operatorPhone: row.operatorPhone,
    operatorEmail: row.operatorEmail,
    functionalState: row.functionalState as DeviceState,
    batteryExpiry: row.batteryExpiry,
    adultPadsExpiry: row.adultPadsExpiry,
    pediatricPadsPresent: row.pediatricPadsPresent,
    pediatricPadsExpiry: row.pediatricPadsExpiry,
    installedOn: row.installedOn,
    lastMaintenanceOn: row.lastMaintenanceOn,
    maintenanceIntervalMonths: row.maintenanceIntervalMonths,
    nextMaintenanceDue: row.nextMaintenanceDue,
    nextDueOn: nullableString(row.nextDueOn),
    needsAttention: Boolean(row.needsAttention),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Today + 30 days in France: the badge's window. */
export function attentionLimitDay(today: string = parisDay()): string {
  return addDaysToDay(today, ATTENTION_WINDOW_DAYS);
}

/** A page of the registry as the JSON text the route sends (decision 049), and its total, which a search may cap. */
export async function listDevices(db: Db, query: DeviceListQuery & { limit: number; offset: number }): Promise<SearchPageText> {
  const today = parisDay();
  const limitDay = attentionLimitDay(today);
  const dueBefore = query.due ? (query.due === 'expired' ? addDaysToDay(today, -1) : addDaysToDay(today, Number(query.due))) : undefined;
  const filters: repo.DeviceListFilters = {
    search: query.search || undefined,
    state: query.state,
    dueBefore,
    dueSubject: query.dueSubject,
    attention: query.attention,
    limit: query.limit,
    offset: query.offset,
  };
  return repo.listDevices(db, filters, limitDay);
}

export async function getDevice(db: DbOrTx, deviceId: string): Promise<Device> {
  const row = await repo.findDevice(db, deviceId, attentionLimitDay());
  if (!row) throw notFound(DEVICE_NOT_FOUND);
  return toDevice(row);
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** The device page: the registry record and each visit with its reports (« sans rapport » when Effectué without one). */
export async function getDeviceDetail(db: Db, deviceId: string): Promise<DeviceDetail> {
  const device = await getDevice(db, deviceId);
  const missions = await repo.listDeviceMissions(db, deviceId);
  const reports = await repo.listMissionReports(db, missions.map((m) => m.missionId));
  const visits: DeviceVisit[] = missions.map((mission) => {
    const own = reports.filter((r) => r.missionId === mission.missionId);
    const recruitHasReport = own.some((r) => r.technicianId === mission.recruitId && r.version > 0);
    return {
      missionId: mission.missionId,
      missionTitle: mission.missionTitle,
      missionStatus: mission.missionStatus,
      visitType: mission.visitType,
      batchId: mission.batchId,
      batchTitle: mission.batchTitle,
      technicianName: mission.recruitId ? `${mission.recruitFirstName} ${mission.recruitLastName}` : null,
      plannedVisitDate: iso(mission.plannedVisitDate),
      isCompleted: Boolean(mission.isCompleted),
      withoutReport: Boolean(mission.isCompleted) && !recruitHasReport,
      reports: own.map((r) => ({
        id: r.id,
        technicianId: r.technicianId,
        technicianName: `${r.firstName} ${r.lastName}`,
        status: r.version > 0 ? ('final' as const) : ('draft' as const),
        version: r.version,
        outcome: r.outcome as VisitOutcome | null,
        visitedAt: iso(r.visitedAt),
        finalizedAt: iso(r.finalizedAt),
        hasPdf: Boolean(r.pdfFileId),
      })),
      createdAt: mission.createdAt.toISOString(),
    };
  });
  return { ...device, visits };
}

/** The next maintenance follows the last one by the device's interval, unless the administrator set it. */
function withNextMaintenance<T extends Partial<UpdateDeviceRequest>>(changes: T, current: { lastMaintenanceOn: string | null; maintenanceIntervalMonths: number }): T {
  if (changes.nextMaintenanceDue !== undefined) return changes;
  if (changes.lastMaintenanceOn === undefined && changes.maintenanceIntervalMonths === undefined) return changes;
  const last = changes.lastMaintenanceOn !== undefined ? changes.lastMaintenanceOn : current.lastMaintenanceOn;
  const interval = changes.maintenanceIntervalMonths ?? current.maintenanceIntervalMonths;
  return { ...changes, nextMaintenanceDue: last ? addMonthsToDay(last, interval) : null };
}

/** "Ajouter un défibrillateur" by hand (admin). A serial number already known answers 409 with the existing device. */
export async function createDevice(db: Db, { body, actorUserId }: { body: CreateDeviceRequest; actorUserId: string }): Promise<Device> {
  const key = deviceSerialKey(body.serialNumber)!;
  return db.transaction(async (tx) => {
    const { serialNumber, ...fields } = body;
    const values = withNextMaintenance(fields, { lastMaintenanceOn: null, maintenanceIntervalMonths: fields.maintenanceIntervalMonths ?? MAINTENANCE_INTERVAL_DEFAULT_MONTHS });
    const created = await repo.insertDevice(tx, { ...values, serialNumber: serialNumber.trim(), serialKey: key });
    if (!created) {
      const existing = await repo.findDeviceByKey(tx, key);
      throw new AppError('ALREADY_EXISTS', `Ce numéro de série est déjà enregistré (${existing?.serialNumber ?? key})`, { serialNumber: 'Numéro de série déjà enregistré' });
    }
    await audit(tx, { actorUserId, action: 'device.create', entity: 'device', entityId: created.id, after: { serialNumber, serialKey: key } });
    return getDevice(tx, created.id);
  });
}

/** Registry edit (admin): the fields sent change, the rest stays; audited with before/after. */
export async function updateDevice(db: Db, { deviceId, body, actorUserId }: { deviceId: string; body: UpdateDeviceRequest; actorUserId: string }): Promise<Device> {
  return db.transaction(async (tx) => {
    await repo.lockDevice(tx, deviceId);
    const before = await getDevice(tx, deviceId);
    const changes = withNextMaintenance(body, before);
    if ((changes.latitude === null) !== (changes.longitude === null) && changes.latitude !== undefined && changes.longitude !== undefined) {
      throw new AppError('VALIDATION_ERROR', 'Latitude et longitude vont ensemble', { latitude: 'Latitude et longitude vont ensemble' });
    }
    await repo.updateDevice(tx, deviceId, changes);
    const after = await getDevice(tx, deviceId);
    await audit(tx, { actorUserId, action: 'device.update', entity: 'device', entityId: deviceId, before, after });
    return after;
  });
}

/** What a complete visit report tells the registry. */
export interface ReportFacts {
  /** The visit's day in France. */
  day: string;
  outcome: VisitOutcome;
  batteryExpiry: string | null;
  adultPadsExpiry: string | null;
  pediatricPadsPresent: boolean | null;
  pediatricPadsExpiry: string | null;
}

/**
 * A saved report updates its device: the state found, the expiry dates read on the consumables, and — when the device
 * was there and checked (En fonctionnement, Hors service) — the last maintenance (the visit's day) and the next one
 * (plus the device's interval). A report about an older visit than the latest one applied changes nothing.
 */
export async function applyVisitReport(tx: DbOrTx, { deviceId, facts }: { deviceId: string; facts: ReportFacts }): Promise<void> {
  await repo.lockDevice(tx, deviceId);
  const row = await repo.findDevice(tx, deviceId, attentionLimitDay());
  if (!row) return;
  if (row.lastReportOn && facts.day < row.lastReportOn) return;
  const changes: Partial<repo.DeviceInsert> = { lastReportOn: facts.day };
  if (facts.outcome !== 'Site inaccessible') changes.functionalState = facts.outcome;
  if (facts.batteryExpiry) changes.batteryExpiry = facts.batteryExpiry;
  if (facts.adultPadsExpiry) changes.adultPadsExpiry = facts.adultPadsExpiry;
  if (facts.pediatricPadsPresent !== null) {
    changes.pediatricPadsPresent = facts.pediatricPadsPresent;
    changes.pediatricPadsExpiry = facts.pediatricPadsPresent ? (facts.pediatricPadsExpiry ?? row.pediatricPadsExpiry) : null;
  }
  if ((MAINTAINED_OUTCOMES as readonly string[]).includes(facts.outcome)) {
    changes.lastMaintenanceOn = facts.day;
    changes.nextMaintenanceDue = addMonthsToDay(facts.day, row.maintenanceIntervalMonths);
  }
  await repo.updateDevice(tx, deviceId, changes);
}

// ---- Documents: labels and the Géo'DAE export ----

const labelFrom = (row: repo.DeviceRow): LabelDevice => ({
  serialNumber: row.serialNumber,
  manufacturer: row.manufacturer,
  model: row.model,
  siteName: row.siteName,
  operatorName: row.operatorName,
  operatorPhone: row.operatorPhone,
  operatorEmail: row.operatorEmail,
  batteryExpiry: row.batteryExpiry,
  adultPadsExpiry: row.adultPadsExpiry,
  pediatricPadsPresent: row.pediatricPadsPresent,
  pediatricPadsExpiry: row.pediatricPadsExpiry,
  lastMaintenanceOn: row.lastMaintenanceOn,
  nextMaintenanceDue: row.nextMaintenanceDue,
});

/** A file name without path or odd characters ("SN-75-1001" → "SN-75-1001"). */
export function fileNamePart(value: string): string {
  return value.normalize('NFKC').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'dae';
}

/** The maintenance label of one device (admin). */
export async function buildDeviceLabel(db: Db, config: Pick<Config, 'CHARITY_NAME' | 'PRODUCT_NAME'>, deviceId: string) {
  const row = await repo.findDevice(db, deviceId, attentionLimitDay());
  if (!row) throw notFound(DEVICE_NOT_FOUND);
  const bytes = await buildDeviceLabelsPdf({
    title: `Étiquette de maintenance ${row.serialNumber}`,
    charityName: config.CHARITY_NAME,
    productName: config.PRODUCT_NAME,
    generatedAt: new Date(),
    devices: [labelFrom(row)],
  });
  return { bytes, fileName: `etiquette-${fileNamePart(row.serialNumber)}.pdf` };
}

/**
 * The label sheet of a lot: the admin's, or its recruited technician's while the lot is in progress (to stick the
 * labels on site). Anyone else gets 404.
 */
export async function buildLotLabels(db: Db, config: Pick<Config, 'CHARITY_NAME' | 'PRODUCT_NAME'>, { auth, batchId }: { auth: AuthContext; batchId: string }) {
  const lot = await repo.findBatch(db, batchId);
  if (!lot || lot.isSystem) throw notFound('Lot introuvable');
  if (auth.role !== 'admin' && (!auth.technicianId || !(await repo.isRecruitOnBatch(db, batchId, auth.technicianId)))) throw notFound('Lot introuvable');
  const rows = await repo.listLotDevices(db, batchId);
  if (rows.length === 0) throw new AppError('BAD_REQUEST', 'Aucun défibrillateur de ce lot n’est enregistré dans le parc (numéro de série manquant)');
  const bytes = await buildDeviceLabelsPdf({
    title: `Étiquettes de maintenance · ${lot.title}`,
    charityName: config.CHARITY_NAME,
    productName: config.PRODUCT_NAME,
    generatedAt: new Date(),
    devices: rows.map(labelFrom),
  });
  return { bytes, fileName: `etiquettes-${fileNamePart(lot.title)}.pdf` };
}

/** Which devices maintained in the range are ready for Géo'DAE, and what the others lack. */
export async function checkGeodaeExport(db: Db, config: Pick<Config, 'CHARITY_NAME'>, { from, to }: GeodaeExportQuery): Promise<GeodaeExportCheck & { rows: GeodaeRow[] }> {
  const devices = await repo.listDevicesMaintainedBetween(db, from, to);
  const rows: GeodaeRow[] = [];
  const excluded: GeodaeExportCheck['excluded'] = [];
  for (const device of devices) {
    const result = toGeodaeRow(device, { maintainerName: config.CHARITY_NAME });
    if (result.row) rows.push(result.row);
    else excluded.push({ deviceId: device.id, serialNumber: device.serialNumber, siteName: device.siteName, city: device.city, missing: result.missing });
  }
  return { from, to, maintained: devices.length, exportable: rows.length, excluded, rows };
}

/** The Géo'DAE CSV of the exportable devices (the excluded ones are listed by checkGeodaeExport). */
export async function buildGeodaeExport(db: Db, config: Pick<Config, 'CHARITY_NAME'>, query: GeodaeExportQuery) {
  const check = await checkGeodaeExport(db, config, query);
  if (check.exportable === 0) {
    throw new AppError(
      'BAD_REQUEST',
      check.maintained === 0
        ? 'Aucun défibrillateur maintenu sur cette période'
        : `Aucun des ${check.maintained} défibrillateurs maintenus sur cette période n’a toutes les données obligatoires de Géo'DAE`,
    );
  }
  return {
    csv: buildGeodaeCsv(check.rows),
    fileName: `geodae-${query.from}-${query.to}.csv`,
    exported: check.exportable,
    excluded: check.excluded.length,
  };
}
