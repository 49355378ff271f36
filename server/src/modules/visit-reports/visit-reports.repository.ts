import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { RECRUITED_APPLICATION_STATUSES } from '@maillon/common/enums';
import type { DbOrTx } from '../../db/client';
import {
  applications,
  devices,
  missionBatches,
  missions,
  storedFiles,
  technicianMissionData,
  technicians,
  visitReportPhotos,
  visitReports,
  visitReportVersions,
} from '../../db/schema';

/** Drizzle queries of the visit reports, explicit columns only. */

/** A mission with its lot and the lot's recruited (or finished) technician. */
export async function findMissionVisit(db: DbOrTx, missionId: string) {
  const [row] = await db
    .select({
      id: missions.id,
      title: missions.title,
      serialNumber: missions.serialNumber,
      defibrillatorModel: missions.defibrillatorModel,
      clientName: missions.clientName,
      location: missions.location,
      postalCode: missions.postalCode,
      city: missions.city,
      visitType: missions.visitType,
      emailSite: missions.emailSite,
      deviceId: missions.deviceId,
      batchId: missions.batchId,
      lotTitle: missionBatches.title,
      lotStatus: missionBatches.status,
      lotIsSystem: missionBatches.isSystem,
      applicationId: applications.id,
      applicationStatus: applications.status,
      recruitId: applications.technicianId,
    })
    .from(missions)
    .leftJoin(missionBatches, eq(missionBatches.id, missions.batchId))
    .leftJoin(applications, and(eq(applications.batchId, missions.batchId), inArray(applications.status, [...RECRUITED_APPLICATION_STATUSES])))
    .where(eq(missions.id, missionId))
    .limit(1);
  return row ?? null;
}
export type MissionVisit = NonNullable<Awaited<ReturnType<typeof findMissionVisit>>>;

export async function lockBatch(tx: DbOrTx, batchId: string): Promise<void> {
  await tx.execute(sql`select id from mission_batches where id = ${batchId} for update`);
}

export const reportColumns = {
  id: visitReports.id,
  missionId: visitReports.missionId,
  technicianId: visitReports.technicianId,
  deviceId: visitReports.deviceId,
  version: visitReports.version,
  draft: visitReports.draft,
  draftUpdatedAt: visitReports.draftUpdatedAt,
  visitedAt: visitReports.visitedAt,
  outcome: visitReports.outcome,
  checklist: visitReports.checklist,
  batteryExpiry: visitReports.batteryExpiry,
  adultPadsExpiry: visitReports.adultPadsExpiry,
  pediatricPadsPresent: visitReports.pediatricPadsPresent,
  pediatricPadsExpiry: visitReports.pediatricPadsExpiry,
  consumablesReplaced: visitReports.consumablesReplaced,
  observations: visitReports.observations,
  signerName: visitReports.signerName,
  signedAt: visitReports.signedAt,
  signatureFileId: visitReports.signatureFileId,
  unsignedReason: visitReports.unsignedReason,
  fingerprint: visitReports.fingerprint,
  pdfFileId: visitReports.pdfFileId,
  finalizedAt: visitReports.finalizedAt,
  updatedAt: visitReports.updatedAt,
};
export type ReportRow = { [K in keyof typeof reportColumns]: (typeof visitReports.$inferSelect)[K] };

export async function findReport(db: DbOrTx, { missionId, technicianId }: { missionId: string; technicianId: string }): Promise<ReportRow | null> {
  const [row] = await db
    .select(reportColumns)
    .from(visitReports)
    .where(and(eq(visitReports.missionId, missionId), eq(visitReports.technicianId, technicianId)))
    .limit(1);
  return row ?? null;
}

export async function findReportById(db: DbOrTx, id: string): Promise<ReportRow | null> {
  const [row] = await db.select(reportColumns).from(visitReports).where(eq(visitReports.id, id)).limit(1);
  return row ?? null;
}

/** Creates the report row with the client's id unless this visit (or this id) has one already. */
export async function insertReportIfAbsent(tx: DbOrTx, values: { id: string; missionId: string; technicianId: string }): Promise<void> {
  await tx.insert(visitReports).values(values).onConflictDoNothing();
}

export async function lockReport(tx: DbOrTx, id: string): Promise<void> {
  await tx.execute(sql`select id from visit_reports where id = ${id} for update`);
}

export async function updateReport(tx: DbOrTx, id: string, values: Partial<typeof visitReports.$inferInsert>): Promise<void> {
  await tx.update(visitReports).set({ ...values, updatedAt: new Date() }).where(eq(visitReports.id, id));
}

export async function listPhotos(db: DbOrTx, reportId: string) {
  return db
    .select({
      id: visitReportPhotos.id,
      fileId: visitReportPhotos.fileId,
      sha256: visitReportPhotos.sha256,
      width: visitReportPhotos.width,
      height: visitReportPhotos.height,
      size: visitReportPhotos.size,
      position: visitReportPhotos.position,
      storageKey: storedFiles.storageKey,
    })
    .from(visitReportPhotos)
    .innerJoin(storedFiles, eq(storedFiles.id, visitReportPhotos.fileId))
    .where(eq(visitReportPhotos.reportId, reportId))
    .orderBy(asc(visitReportPhotos.position), asc(visitReportPhotos.createdAt));
}
export type PhotoRow = Awaited<ReturnType<typeof listPhotos>>[number];

export async function findPhoto(db: DbOrTx, photoId: string) {
  const [row] = await db
    .select({ id: visitReportPhotos.id, reportId: visitReportPhotos.reportId, fileId: visitReportPhotos.fileId, storageKey: storedFiles.storageKey, sha256: visitReportPhotos.sha256, width: visitReportPhotos.width, height: visitReportPhotos.height, size: visitReportPhotos.size })
    .from(visitReportPhotos)
    .innerJoin(storedFiles, eq(storedFiles.id, visitReportPhotos.fileId))
    .where(eq(visitReportPhotos.id, photoId))
    .limit(1);
  return row ?? null;
}

export async function insertPhoto(tx: DbOrTx, values: typeof visitReportPhotos.$inferInsert): Promise<void> {
  await tx.insert(visitReportPhotos).values(values);
}

export async function setPhotoPosition(tx: DbOrTx, photoId: string, position: number): Promise<void> {
  await tx.update(visitReportPhotos).set({ position }).where(eq(visitReportPhotos.id, photoId));
}

/** Removes stored-file rows (photos' rows go with them); the objects are removed after the commit. */
export async function deleteStoredFiles(tx: DbOrTx, fileIds: string[]): Promise<void> {
  if (fileIds.length === 0) return;
  await tx.delete(storedFiles).where(inArray(storedFiles.id, fileIds));
}

export async function findStoredFile(db: DbOrTx, id: string) {
  const [row] = await db
    .select({ id: storedFiles.id, storageKey: storedFiles.storageKey, mimeType: storedFiles.mimeType, originalName: storedFiles.originalName })
    .from(storedFiles)
    .where(eq(storedFiles.id, id))
    .limit(1);
  return row ?? null;
}

export async function insertVersion(tx: DbOrTx, values: typeof visitReportVersions.$inferInsert): Promise<void> {
  await tx.insert(visitReportVersions).values(values);
}

/** Who writes the PV: the technician's name, company and SIRET. */
export async function findTechnicianIdentity(db: DbOrTx, technicianId: string) {
  const [row] = await db
    .select({ firstName: technicians.firstName, lastName: technicians.lastName, companyName: technicians.companyName, siret: technicians.siret })
    .from(technicians)
    .where(eq(technicians.id, technicianId))
    .limit(1);
  return row ?? null;
}

export async function findProgress(db: DbOrTx, { missionId, technicianId }: { missionId: string; technicianId: string }) {
  const [row] = await db
    .select({ isCompleted: technicianMissionData.isCompleted, plannedVisitDate: technicianMissionData.plannedVisitDate })
    .from(technicianMissionData)
    .where(and(eq(technicianMissionData.missionId, missionId), eq(technicianMissionData.technicianId, technicianId)))
    .limit(1);
  return row ?? null;
}

/** What the registry knew of the device before this visit (shown beside the report's fields). */
export async function findDeviceSummary(db: DbOrTx, deviceId: string) {
  const [row] = await db
    .select({
      id: devices.id,
      serialNumber: devices.serialNumber,
      manufacturer: devices.manufacturer,
      model: devices.model,
      siteName: devices.siteName,
      address: devices.address,
      postalCode: devices.postalCode,
      city: devices.city,
      siteEmail: devices.siteEmail,
      operatorName: devices.operatorName,
      functionalState: devices.functionalState,
      batteryExpiry: devices.batteryExpiry,
      adultPadsExpiry: devices.adultPadsExpiry,
      pediatricPadsPresent: devices.pediatricPadsPresent,
      pediatricPadsExpiry: devices.pediatricPadsExpiry,
      lastMaintenanceOn: devices.lastMaintenanceOn,
      nextMaintenanceDue: devices.nextMaintenanceDue,
    })
    .from(devices)
    .where(eq(devices.id, deviceId))
    .limit(1);
  return row ?? null;
}
