import { and, asc, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ConsumableKind, ShipmentStatus } from '@maillon/common/enums';
import type { DbOrTx } from '../../db/client';
import {
  applications,
  devices,
  lotPartShipments,
  missionBatches,
  missions,
  modelConsumables,
  partsSettings,
  shipmentParts,
  shipments,
  technicianMissionData,
  technicians,
  visitReports,
} from '../../db/schema';
import { lotsWithRecruit, RECRUITED } from '../lifecycle/lifecycle.service';

export async function findSettings(tx: DbOrTx) {
  const [row] = await tx
    .select({ expiryMarginDays: partsSettings.expiryMarginDays, shipDaysBeforeVisit: partsSettings.shipDaysBeforeVisit })
    .from(partsSettings)
    .where(eq(partsSettings.id, 1))
    .limit(1);
  return row ?? null;
}

export async function upsertSettings(tx: DbOrTx, values: { expiryMarginDays: number; shipDaysBeforeVisit: number }) {
  await tx
    .insert(partsSettings)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: partsSettings.id, set: values });
}

const consumableColumns = {
  id: modelConsumables.id,
  manufacturer: modelConsumables.manufacturer,
  model: modelConsumables.model,
  modelKey: modelConsumables.modelKey,
  kind: modelConsumables.kind,
  itemLabel: modelConsumables.itemLabel,
};

export async function listConsumables(tx: DbOrTx) {
  const rows = await tx
    .select(consumableColumns)
    .from(modelConsumables)
    .orderBy(asc(modelConsumables.modelKey), asc(modelConsumables.kind), asc(modelConsumables.id));
  return rows.map((r) => ({ ...r, kind: r.kind as ConsumableKind }));
}

export async function findConsumable(tx: DbOrTx, id: string) {
  const [row] = await tx.select(consumableColumns).from(modelConsumables).where(eq(modelConsumables.id, id)).limit(1);
  return row ? { ...row, kind: row.kind as ConsumableKind } : null;
}

export type ConsumableValues = { manufacturer: string; model: string; modelKey: string; kind: ConsumableKind; itemLabel: string };

/** Inserts, or answers null when the model already has this kind (unique model_key + kind). */
export async function insertConsumable(tx: DbOrTx, values: ConsumableValues): Promise<string | null> {
  const [row] = await tx.insert(modelConsumables).values(values).onConflictDoNothing().returning({ id: modelConsumables.id });
  return row?.id ?? null;
}

export async function findConsumableIdByKey(tx: DbOrTx, modelKey: string, kind: ConsumableKind) {
  const [row] = await tx
    .select({ id: modelConsumables.id })
    .from(modelConsumables)
    .where(and(eq(modelConsumables.modelKey, modelKey), eq(modelConsumables.kind, kind)))
    .limit(1);
  return row?.id ?? null;
}

export async function updateConsumable(tx: DbOrTx, id: string, values: ConsumableValues) {
  await tx.update(modelConsumables).set(values).where(eq(modelConsumables.id, id));
}

export async function deleteConsumable(tx: DbOrTx, id: string): Promise<boolean> {
  const rows = await tx.delete(modelConsumables).where(eq(modelConsumables.id, id)).returning({ id: modelConsumables.id });
  return rows.length > 0;
}

export async function lockLot(tx: DbOrTx, batchId: string) {
  await tx.execute(sql`select id from mission_batches where id = ${batchId} for update`);
}

export async function findLot(tx: DbOrTx, batchId: string) {
  const [lot] = await tx
    .select({ id: missionBatches.id, title: missionBatches.title, deadline: missionBatches.deadline, isSystem: missionBatches.isSystem })
    .from(missionBatches)
    .where(eq(missionBatches.id, batchId))
    .limit(1);
  return lot ?? null;
}

const recruitColumns = {
  id: technicians.id,
  firstName: technicians.firstName,
  lastName: technicians.lastName,
  relayPoint: technicians.preferredRelayPoint,
};

/** The lot's recruited (or finished) technician with its relay point. */
export async function findLotRecruit(tx: DbOrTx, batchId: string) {
  const [row] = await tx
    .select(recruitColumns)
    .from(applications)
    .innerJoin(technicians, eq(technicians.id, applications.technicianId))
    .where(and(eq(applications.batchId, batchId), inArray(applications.status, [...RECRUITED])))
    .limit(1);
  return row ?? null;
}

/** What a visit needs of its device. */
const visitDeviceColumns = {
  deviceId: devices.id,
  serialNumber: devices.serialNumber,
  siteName: devices.siteName,
  manufacturer: devices.manufacturer,
  model: devices.model,
  batteryExpiry: devices.batteryExpiry,
  adultPadsExpiry: devices.adultPadsExpiry,
  pediatricPadsPresent: devices.pediatricPadsPresent,
  pediatricPadsExpiry: devices.pediatricPadsExpiry,
};

const visitMissionColumns = {
  batchId: missions.batchId,
  missionId: missions.id,
  missionSerial: missions.serialNumber,
  clientName: missions.clientName,
  missionModel: missions.defibrillatorModel,
  plannedVisitDate: technicianMissionData.plannedVisitDate,
  isCompleted: technicianMissionData.isCompleted,
};

const visitColumns = { ...visitMissionColumns, ...visitDeviceColumns };

/** The lot's visits with their device and the recruit's planned day and progress. */
export async function listLotVisits(tx: DbOrTx, batchId: string, technicianId: string | null) {
  return tx
    .select(visitColumns)
    .from(missions)
    .leftJoin(devices, eq(devices.id, missions.deviceId))
    .leftJoin(
      technicianMissionData,
      and(
        eq(technicianMissionData.missionId, missions.id),
        technicianId ? eq(technicianMissionData.technicianId, technicianId) : sql`false`,
      ),
    )
    .where(eq(missions.batchId, batchId))
    .orderBy(asc(missions.createdAt), asc(missions.id));
}

/**
 * What computeLotParts reads for one lot, for many lots in one statement each (Expéditions lists up to 200 lots: one
 * lot at a time was 1 400 statements, 577 ms at full scale; decision 039).
 */
export async function readLotsForParts(tx: DbOrTx, batchIds: string[]) {
  if (batchIds.length === 0) return { recruits: [], proposed: [], shipped: new Set<string>(), visits: [] };
  const recruits = await tx
    .select({ batchId: applications.batchId, ...recruitColumns })
    .from(applications)
    .innerJoin(technicians, eq(technicians.id, applications.technicianId))
    .where(and(inArray(applications.batchId, batchIds), inArray(applications.status, [...RECRUITED])));
  const proposed = await tx
    .select({ batchId: lotPartShipments.batchId, id: shipments.id, status: shipments.status, shippedDate: shipments.shippedDate })
    .from(lotPartShipments)
    .innerJoin(shipments, eq(shipments.id, lotPartShipments.shipmentId))
    .where(inArray(lotPartShipments.batchId, batchIds));
  const shipped = await tx
    .selectDistinct({ batchId: shipments.batchId })
    .from(shipments)
    .where(and(inArray(shipments.batchId, batchIds), inArray(shipments.status, ['in_transit', 'delivered'])));
  // Each lot's recruit (one at most: applications_one_recruit_per_batch_idx) brings its planned days and progress.
  const recruit = alias(applications, 'recruit');
  // Each visit's device read on its primary key: joined, the 2 000 visits of 200 lots were planned as a hash of all
  // 100 000 devices (74 ms at full scale, 31 ms this way). `limit 1` keeps the lookup a lateral one.
  const device = tx.select(visitDeviceColumns).from(devices).where(eq(devices.id, missions.deviceId)).limit(1).as('device');
  // The same columns as listLotVisits, read from the subquery.
  const deviceFields = Object.fromEntries(Object.keys(visitDeviceColumns).map((key) => [key, device[key as keyof typeof visitDeviceColumns]])) as {
    [K in keyof typeof visitDeviceColumns]: (typeof device)[K];
  };
  const visits = await tx
    .select({ ...visitMissionColumns, ...deviceFields })
    .from(missions)
    .leftJoinLateral(device, sql`true`)
    .leftJoin(recruit, and(eq(recruit.batchId, missions.batchId), inArray(recruit.status, [...RECRUITED])))
    .leftJoin(technicianMissionData, and(eq(technicianMissionData.missionId, missions.id), eq(technicianMissionData.technicianId, recruit.technicianId)))
    .where(inArray(missions.batchId, batchIds))
    .orderBy(asc(missions.batchId), asc(missions.createdAt), asc(missions.id));
  return {
    recruits,
    proposed: proposed.map((row) => ({ ...row, status: row.status as ShipmentStatus })),
    shipped: new Set(shipped.map((row) => row.batchId).filter((id): id is string => id !== null)),
    visits,
  };
}

/** The parcel created from the lot's proposal (a link to a cancelled parcel included: the caller decides). */
export async function findProposedShipment(tx: DbOrTx, batchId: string) {
  const [row] = await tx
    .select({ id: shipments.id, status: shipments.status, shippedDate: shipments.shippedDate })
    .from(lotPartShipments)
    .innerJoin(shipments, eq(shipments.id, lotPartShipments.shipmentId))
    .where(eq(lotPartShipments.batchId, batchId))
    .limit(1);
  return row ? { ...row, status: row.status as ShipmentStatus } : null;
}

export async function hasShippedParcel(tx: DbOrTx, batchId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: shipments.id })
    .from(shipments)
    .where(and(eq(shipments.batchId, batchId), inArray(shipments.status, ['in_transit', 'delivered'])))
    .limit(1);
  return Boolean(row);
}

export async function deleteProposedLink(tx: DbOrTx, batchId: string) {
  await tx.delete(lotPartShipments).where(eq(lotPartShipments.batchId, batchId));
}

export async function insertProposedLink(tx: DbOrTx, batchId: string, shipmentId: string) {
  await tx.insert(lotPartShipments).values({ batchId, shipmentId });
}

export async function insertShipmentParts(
  tx: DbOrTx,
  rows: { shipmentId: string; missionId: string; deviceId: string | null; kind: ConsumableKind; itemLabel: string }[],
) {
  if (rows.length > 0) await tx.insert(shipmentParts).values(rows);
}

/**
 * Active lots with a recruit: the lots whose parcel can be proposed (Expéditions). The lot's kept `has_recruit` (« Recruté »
 * or « Terminé », migration 0017) lets the title order be walked on mission_batches_recruited_title_idx; the join keeps
 * « Recruté ». Reading every active lot to sort them took 56 ms at full scale.
 */
export async function listLotsWithRecruit(tx: DbOrTx) {
  return tx
    .select({ id: missionBatches.id, title: missionBatches.title, deadline: missionBatches.deadline })
    .from(missionBatches)
    .innerJoin(applications, lotsWithRecruit.recruitOfLot)
    .where(lotsWithRecruit.lotIsActiveWithRecruit)
    .orderBy(...lotsWithRecruit.byTitle)
    .limit(200);
}

/** Parts of the lot's live parcels (not cancelled), with the device they are for and the visit's complete report. */
export async function listLotShipmentParts(tx: DbOrTx, batchId: string) {
  return tx
    .select({
      shipmentId: shipmentParts.shipmentId,
      shipmentStatus: shipments.status,
      missionId: shipmentParts.missionId,
      deviceId: shipmentParts.deviceId,
      kind: shipmentParts.kind,
      itemLabel: shipmentParts.itemLabel,
      serialNumber: sql<string | null>`coalesce(${devices.serialNumber}, ${missions.serialNumber})`,
      siteName: sql<string | null>`coalesce(${devices.siteName}, ${missions.clientName})`,
    })
    .from(shipmentParts)
    .innerJoin(shipments, eq(shipments.id, shipmentParts.shipmentId))
    .innerJoin(missions, eq(missions.id, shipmentParts.missionId))
    .leftJoin(devices, eq(devices.id, shipmentParts.deviceId))
    .where(and(eq(shipments.batchId, batchId), ne(shipments.status, 'cancelled')))
    .orderBy(asc(shipmentParts.createdAt), asc(shipmentParts.id));
}

/** Complete reports (at least one version) of the given visits: what each replaced. */
export async function listCompleteReports(tx: DbOrTx, missionIds: string[]) {
  if (missionIds.length === 0) return [];
  return tx
    .select({ missionId: visitReports.missionId, visitedAt: visitReports.visitedAt, consumablesReplaced: visitReports.consumablesReplaced })
    .from(visitReports)
    .where(and(inArray(visitReports.missionId, missionIds), sql`${visitReports.version} > 0`, isNotNull(visitReports.visitedAt)));
}

/** Parts coming to a technician for a lot, from its live parcels (the technician's Recruté view). */
export async function listTechnicianLotParts(tx: DbOrTx, batchId: string, technicianId: string) {
  return tx
    .select({
      missionId: shipmentParts.missionId,
      kind: shipmentParts.kind,
      itemLabel: shipmentParts.itemLabel,
      shipmentId: shipments.id,
      shipmentStatus: shipments.status,
    })
    .from(shipmentParts)
    .innerJoin(shipments, eq(shipments.id, shipmentParts.shipmentId))
    .where(and(eq(shipments.batchId, batchId), eq(shipments.technicianId, technicianId), ne(shipments.status, 'cancelled')))
    .orderBy(asc(shipmentParts.kind), asc(shipmentParts.id));
}

export async function findApplication(tx: DbOrTx, applicationId: string) {
  const [row] = await tx
    .select({ batchId: applications.batchId, technicianId: applications.technicianId, status: applications.status })
    .from(applications)
    .where(eq(applications.id, applicationId))
    .limit(1);
  return row ?? null;
}

export async function listVisitParts(tx: DbOrTx, missionId: string, technicianId: string) {
  return tx
    .select({ itemLabel: shipmentParts.itemLabel })
    .from(shipmentParts)
    .innerJoin(shipments, eq(shipments.id, shipmentParts.shipmentId))
    .where(and(eq(shipmentParts.missionId, missionId), eq(shipments.technicianId, technicianId), ne(shipments.status, 'cancelled')))
    .orderBy(asc(shipmentParts.kind), asc(shipmentParts.id));
}
