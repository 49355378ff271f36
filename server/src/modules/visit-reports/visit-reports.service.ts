import { listPartsComingForVisit } from '../parts/parts.service';
import { SITE_INACCESSIBLE, type DeviceState, type VisitOutcome } from '@maillon/common/enums';
import { describeOpeningHours, formatDay, parisDay, REPORT_MESSAGES, VISIT_PHOTOS_MAX } from '@maillon/common/device-rules';
import { formatDate } from '@maillon/common/format';
import type {
  ReportDraft,
  SaveReportDraftRequest,
  SaveReportRequest,
  VisitPhoto,
  VisitReport,
  VisitReportContext,
} from '@maillon/common/schemas/visit-reports';
import type { Config } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import { AppError, notFound } from '../../lib/app-error';
import { removeStoredFile, storeFile } from '../../lib/files';
import { enqueueEmail } from '../../lib/outbox';
import type { ObjectStorage } from '../../lib/storage/object-storage';
import type { AuthContext } from '../auth/auth.service';
import { applyVisitReport, fileNamePart, linkMissionToDevice, splitModel } from '../devices/devices.service';
import { saveMissionProgress } from '../lifecycle/lifecycle.service';
import { reportFingerprint, type ReportCanonicalData } from './fingerprint';
import { photoForPdf, processPhoto, processSignature } from './images';
import { buildVisitReportPdf } from './visit-report-pdf';
import * as repo from './visit-reports.repository';

const MISSION_NOT_FOUND = 'Mission introuvable';
const REPORT_NOT_FOUND = 'Rapport introuvable';
const PHOTO_NOT_FOUND = 'Photo introuvable';
const NO_PDF = 'Aucun procès-verbal : le rapport n’a pas encore été enregistré';
const LOT_CLOSED = 'Ce lot n’est plus en cours : le rapport ne peut plus être modifié';
/** A phone's clock may run a little ahead of the server's. */
const CLOCK_SKEW_MS = 10 * 60_000;

type Visit = repo.MissionVisit & { batchId: string; recruitId: string; applicationId: string };

/**
 * The visit as the caller may reach it: a technician only as the lot's recruit (Recruté or Terminé), the admin any
 * mission of a lot with a recruit. Anything else answers 404 (decisions.md §2).
 */
async function loadVisit(db: DbOrTx, auth: AuthContext, missionId: string): Promise<Visit> {
  const visit = await repo.findMissionVisit(db, missionId);
  if (!visit || !visit.batchId || !visit.recruitId || !visit.applicationId || visit.lotIsSystem) throw notFound(MISSION_NOT_FOUND);
  if (auth.role !== 'admin' && visit.recruitId !== auth.technicianId) throw notFound(MISSION_NOT_FOUND);
  return visit as Visit;
}

const isWritable = (visit: Visit) => visit.applicationStatus === 'Recruté' && visit.lotStatus !== 'completed';

/** Writes need the caller's own Recruté lot, still open: read again under the lot's lock, as progress saves do. */
async function lockWritableVisit(tx: DbOrTx, auth: AuthContext, missionId: string): Promise<Visit> {
  const first = await loadVisit(tx, auth, missionId);
  await repo.lockBatch(tx, first.batchId);
  const visit = await loadVisit(tx, auth, missionId);
  if (visit.batchId !== first.batchId) throw notFound(MISSION_NOT_FOUND);
  if (!isWritable(visit)) throw new AppError('INVALID_TRANSITION', LOT_CLOSED);
  return visit;
}

/**
 * The caller's report for this visit, created with the client's id if there is none yet, and locked. Another id for
 * the same visit (two phones that started a report each) answers 409: the client reloads and continues that one.
 */
async function ensureReport(tx: DbOrTx, ids: { id: string; missionId: string; technicianId: string }): Promise<repo.ReportRow> {
  await repo.insertReportIfAbsent(tx, ids);
  const existing = await repo.findReport(tx, ids);
  if (!existing) throw new AppError('CONFLICT', 'Identifiant de rapport déjà utilisé');
  if (existing.id !== ids.id) {
    throw new AppError('CONFLICT', 'Un rapport existe déjà pour cette visite : rechargez la page pour le reprendre', { id: existing.id });
  }
  await repo.lockReport(tx, existing.id);
  return (await repo.findReport(tx, ids))!;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

function toPhoto(row: Pick<repo.PhotoRow, 'id' | 'width' | 'height' | 'size' | 'sha256'>): VisitPhoto {
  return { id: row.id, width: row.width, height: row.height, size: row.size, sha256: row.sha256 };
}

async function readSignature(db: DbOrTx, storage: ObjectStorage, fileId: string | null): Promise<string | null> {
  if (!fileId) return null;
  const file = await repo.findStoredFile(db, fileId);
  const bytes = file ? await storage.read(file.storageKey) : null;
  return bytes ? bytes.toString('base64') : null;
}

async function toReport(db: DbOrTx, storage: ObjectStorage, row: repo.ReportRow): Promise<VisitReport> {
  const photos = await repo.listPhotos(db, row.id);
  return {
    id: row.id,
    missionId: row.missionId,
    technicianId: row.technicianId,
    deviceId: row.deviceId,
    status: row.version > 0 ? 'final' : 'draft',
    version: row.version,
    visitedAt: iso(row.visitedAt),
    outcome: row.outcome as VisitOutcome | null,
    checklist: (row.checklist ?? {}) as VisitReport['checklist'],
    batteryExpiry: row.batteryExpiry,
    adultPadsExpiry: row.adultPadsExpiry,
    pediatricPadsPresent: row.pediatricPadsPresent,
    pediatricPadsExpiry: row.pediatricPadsExpiry,
    consumablesReplaced: row.consumablesReplaced,
    observations: row.observations,
    signerName: row.signerName,
    signedAt: iso(row.signedAt),
    unsignedReason: row.unsignedReason,
    hasSignature: Boolean(row.signatureFileId),
    signature: await readSignature(db, storage, row.signatureFileId),
    photos: photos.map(toPhoto),
    fingerprint: row.fingerprint,
    finalizedAt: iso(row.finalizedAt),
    updatedAt: row.updatedAt.toISOString(),
    draft: row.draft && row.draftUpdatedAt ? ({ values: row.draft, updatedAt: row.draftUpdatedAt.toISOString() } as ReportDraft) : null,
  };
}

/** GET …/visit-report: the device, what the registry knew before, and the report with its draft. */
export async function getVisitReportContext(db: Db, storage: ObjectStorage, { auth, missionId }: { auth: AuthContext; missionId: string }): Promise<VisitReportContext> {
  const visit = await loadVisit(db, auth, missionId);
  const ids = { missionId, technicianId: visit.recruitId };
  const [report, progress, device] = await Promise.all([
    repo.findReport(db, ids),
    repo.findProgress(db, ids),
    visit.deviceId ? repo.findDeviceSummary(db, visit.deviceId) : Promise.resolve(null),
  ]);
  return {
    mission: {
      id: visit.id,
      title: visit.title,
      serialNumber: visit.serialNumber,
      defibrillatorModel: visit.defibrillatorModel,
      clientName: visit.clientName,
      location: visit.location,
      visitType: visit.visitType,
      hasEmailSite: Boolean(visit.emailSite?.trim() || device?.siteEmail?.trim()),
    },
    lot: { id: visit.batchId, title: visit.lotTitle ?? '' },
    applicationId: visit.applicationId,
    technicianId: visit.recruitId,
    editable: auth.role === 'technician' && isWritable(visit),
    isCompleted: Boolean(progress?.isCompleted),
    device: device
      ? {
          id: device.id,
          functionalState: device.functionalState as DeviceState,
          batteryExpiry: device.batteryExpiry,
          adultPadsExpiry: device.adultPadsExpiry,
          pediatricPadsPresent: device.pediatricPadsPresent,
          pediatricPadsExpiry: device.pediatricPadsExpiry,
          lastMaintenanceOn: device.lastMaintenanceOn,
          nextMaintenanceDue: device.nextMaintenanceDue,
        }
      : null,
    report: report ? await toReport(db, storage, report) : null,
    partsComing: await listPartsComingForVisit(db, ids),
  };
}

/** PUT …/visit-report/draft: what has been typed, kept on the server (replaying it changes nothing). */
export async function saveReportDraft(
  db: Db,
  storage: ObjectStorage,
  { auth, missionId, body }: { auth: AuthContext; missionId: string; body: SaveReportDraftRequest },
): Promise<VisitReport> {
  const technicianId = auth.technicianId!;
  const row = await db.transaction(async (tx) => {
    await lockWritableVisit(tx, auth, missionId);
    const report = await ensureReport(tx, { id: body.id, missionId, technicianId });
    const { id: _id, ...values } = body;
    await repo.updateReport(tx, report.id, { draft: values, draftUpdatedAt: new Date() });
    return (await repo.findReportById(tx, report.id))!;
  });
  return toReport(db, storage, row);
}

/**
 * PUT …/visit-report/photos/{photoId}: one photo, checked and rewritten on the server (images.ts). The photo's id is
 * the phone's: sending it again answers the stored photo. At most 6 per report; the report is created on the way if
 * this photo comes first.
 */
export async function uploadReportPhoto(
  db: Db,
  storage: ObjectStorage,
  { auth, missionId, photoId, reportId, buffer }: { auth: AuthContext; missionId: string; photoId: string; reportId: string; buffer: Buffer },
): Promise<VisitPhoto> {
  const technicianId = auth.technicianId!;
  const visit = await loadVisit(db, auth, missionId);
  if (!isWritable(visit)) throw new AppError('INVALID_TRANSITION', LOT_CLOSED);
  const image = await processPhoto(buffer);
  const written: string[] = [];
  try {
    return await db.transaction(async (tx) => {
      await lockWritableVisit(tx, auth, missionId);
      const report = await ensureReport(tx, { id: reportId, missionId, technicianId });
      const existing = await repo.findPhoto(tx, photoId);
      if (existing) {
        if (existing.reportId === report.id) return toPhoto(existing);
        throw new AppError('CONFLICT', 'Identifiant de photo déjà utilisé');
      }
      const photos = await repo.listPhotos(tx, report.id);
      if (photos.length >= VISIT_PHOTOS_MAX) throw new AppError('VALIDATION_ERROR', REPORT_MESSAGES.photosMax, { file: REPORT_MESSAGES.photosMax });
      const stored = await storeFile(tx, {
        storage,
        technicianId,
        kind: 'visit-photo',
        buffer: image.bytes,
        originalName: `photo-${photoId.slice(0, 8)}.jpg`,
        invalidTypeMessage: REPORT_MESSAGES.photoNotImage,
      });
      written.push(stored.storageKey);
      const position = photos.reduce((max, photo) => Math.max(max, photo.position + 1), 0);
      await repo.insertPhoto(tx, { id: photoId, reportId: report.id, fileId: stored.id, sha256: image.sha256, width: image.width, height: image.height, size: image.bytes.length, position });
      return { id: photoId, width: image.width, height: image.height, size: image.bytes.length, sha256: image.sha256 };
    });
  } catch (error) {
    for (const key of written) await removeStoredFile(storage, key);
    throw error;
  }
}

/** DELETE …/visit-report/photos/{photoId}: idempotent (a photo already gone answers success too). */
export async function deleteReportPhoto(db: Db, storage: ObjectStorage, { auth, missionId, photoId }: { auth: AuthContext; missionId: string; photoId: string }) {
  const technicianId = auth.technicianId!;
  const visit = await loadVisit(db, auth, missionId);
  if (!isWritable(visit)) throw new AppError('INVALID_TRANSITION', LOT_CLOSED);
  const removed = await db.transaction(async (tx) => {
    await lockWritableVisit(tx, auth, missionId);
    const report = await repo.findReport(tx, { missionId, technicianId });
    if (!report) return null;
    await repo.lockReport(tx, report.id);
    const photo = await repo.findPhoto(tx, photoId);
    if (!photo || photo.reportId !== report.id) return null;
    await repo.deleteStoredFiles(tx, [photo.fileId]);
    return photo.storageKey;
  });
  if (removed) await removeStoredFile(storage, removed);
  return { success: true as const };
}

/** A photo of the visit's report, for its technician or the admin. */
export async function findReportPhoto(db: Db, { auth, missionId, photoId }: { auth: AuthContext; missionId: string; photoId: string }) {
  const visit = await loadVisit(db, auth, missionId);
  const report = await repo.findReport(db, { missionId, technicianId: visit.recruitId });
  const photo = report ? await repo.findPhoto(db, photoId) : null;
  if (!report || !photo || photo.reportId !== report.id) throw notFound(PHOTO_NOT_FOUND);
  return { storageKey: photo.storageKey, fileName: `photo-${photo.id.slice(0, 8)}.jpg`, contentType: 'image/jpeg' };
}

async function pdfOf(db: DbOrTx, report: repo.ReportRow) {
  const file = report.pdfFileId ? await repo.findStoredFile(db, report.pdfFileId) : null;
  if (!file) throw notFound(NO_PDF);
  return { storageKey: file.storageKey, fileName: file.originalName, contentType: 'application/pdf' };
}

/** The latest PV of the visit's report (its technician or the admin). */
export async function findMissionReportPdf(db: Db, { auth, missionId }: { auth: AuthContext; missionId: string }) {
  const visit = await loadVisit(db, auth, missionId);
  const report = await repo.findReport(db, { missionId, technicianId: visit.recruitId });
  if (!report) throw notFound(NO_PDF);
  return pdfOf(db, report);
}

/** The latest PV of a report by its id (the admin's device page; its own technician too). */
export async function findReportPdf(db: Db, { auth, reportId }: { auth: AuthContext; reportId: string }) {
  const report = await repo.findReportById(db, reportId);
  if (!report || (auth.role !== 'admin' && report.technicianId !== auth.technicianId)) throw notFound(REPORT_NOT_FOUND);
  return pdfOf(db, report);
}

function visitEmail(config: Pick<Config, 'PRODUCT_NAME' | 'CHARITY_NAME'>, facts: { model: string; serial: string | null; day: Date; technician: string; company: string | null; outcome: string; nextMaintenance: string | null; fingerprint: string; openingHours: string | null }) {
  const device = [facts.model, facts.serial ? `n° de série ${facts.serial}` : null].filter(Boolean).join(', ');
  return [
    'Bonjour,',
    '',
    `Veuillez trouver ci-joint le procès-verbal de la visite de maintenance de votre défibrillateur${device ? ` (${device})` : ''}, réalisée le ${formatDate(facts.day)} par ${facts.technician}${facts.company ? ` (${facts.company})` : ''}.`,
    '',
    `Résultat de la visite : ${facts.outcome}.`,
    ...(facts.nextMaintenance ? [`Prochaine maintenance : ${formatDay(facts.nextMaintenance)}.`] : []),
    ...(facts.openingHours ? [`Disponibilité déclarée : ${describeOpeningHours(facts.openingHours)}.`] : []),
    '',
    `Empreinte SHA-256 du rapport, imprimée au pied du procès-verbal : ${facts.fingerprint}`,
    '',
    'Cordialement,',
    `${config.PRODUCT_NAME} — ${config.CHARITY_NAME}`,
  ].join('\n');
}

/**
 * PUT …/visit-report: the complete report, in one transaction. Saving the same content again (a replay) changes
 * nothing. A new content becomes the next version: the photos kept are those listed, the device is linked and its
 * registry record updated (state, expiry dates, maintenance), the device is marked Effectué through the lot lifecycle
 * (figures and invoice follow) unless the site could not be reached, the PV is generated and stored, and e-mailed once
 * to the site when it has an address.
 */
export async function saveFinalReport(
  db: Db,
  storage: ObjectStorage,
  config: Pick<Config, 'PRODUCT_NAME' | 'CHARITY_NAME'>,
  { auth, missionId, body }: { auth: AuthContext; missionId: string; body: SaveReportRequest },
): Promise<VisitReportContext> {
  const technicianId = auth.technicianId!;
  const visit = await loadVisit(db, auth, missionId);
  if (!isWritable(visit)) throw new AppError('INVALID_TRANSITION', LOT_CLOSED);
  const visitedAt = new Date(body.visitedAt!);
  if (visitedAt.getTime() > Date.now() + CLOCK_SKEW_MS) {
    throw new AppError('VALIDATION_ERROR', REPORT_MESSAGES.visitedAtFuture, { visitedAt: REPORT_MESSAGES.visitedAtFuture });
  }
  const outcome = body.outcome!;
  const signature = body.signature && outcome !== SITE_INACCESSIBLE ? await processSignature(body.signature) : null;
  const pediatricPadsExpiry = body.pediatricPadsPresent ? body.pediatricPadsExpiry : null;
  const written: string[] = [];
  const removeAfterCommit: string[] = [];
  try {
    await db.transaction(async (tx) => {
      const locked = await lockWritableVisit(tx, auth, missionId);
      const report = await ensureReport(tx, { id: body.id, missionId, technicianId });
      const photos = await repo.listPhotos(tx, report.id);
      const byId = new Map(photos.map((photo) => [photo.id, photo]));
      if (body.photoIds.some((id) => !byId.has(id))) {
        const message = 'Une photo n’a pas encore été envoyée : réessayez quand elle apparaît comme envoyée';
        throw new AppError('VALIDATION_ERROR', message, { photoIds: message });
      }
      const kept = body.photoIds.map((id) => byId.get(id)!);
      const signedAt = signature ? new Date(body.signedAt ?? body.visitedAt!) : null;
      const canonical: ReportCanonicalData = {
        format: 'maillon-visit-report/1',
        reportId: report.id,
        missionId,
        technicianId,
        serialNumber: locked.serialNumber,
        visitedAt: visitedAt.toISOString(),
        outcome,
        checklist: body.checklist as Record<string, string>,
        batteryExpiry: body.batteryExpiry,
        adultPadsExpiry: body.adultPadsExpiry,
        pediatricPadsPresent: body.pediatricPadsPresent,
        pediatricPadsExpiry,
        consumablesReplaced: [...body.consumablesReplaced].sort(),
        observations: body.observations,
        signerName: signature ? body.signerName : null,
        signedAt: signedAt ? signedAt.toISOString() : null,
        signatureSha256: signature?.sha256 ?? null,
        unsignedReason: signature ? null : body.unsignedReason,
        photosSha256: kept.map((photo) => photo.sha256),
      };
      const fingerprint = reportFingerprint(canonical);
      if (report.version > 0 && report.fingerprint === fingerprint) return;

      // The signature and the photos of this version; what the previous version had and this one drops goes.
      let signatureFileId: string | null = null;
      if (signature) {
        const stored = await storeFile(tx, { storage, technicianId, kind: 'signature', buffer: signature.bytes, originalName: `signature-${report.id.slice(0, 8)}.png`, invalidTypeMessage: 'Signature invalide' });
        written.push(stored.storageKey);
        signatureFileId = stored.id;
      }
      const dropped = photos.filter((photo) => !body.photoIds.includes(photo.id));
      const oldSignature = report.signatureFileId ? await repo.findStoredFile(tx, report.signatureFileId) : null;
      await repo.deleteStoredFiles(tx, [...dropped.map((photo) => photo.fileId), ...(oldSignature ? [oldSignature.id] : [])]);
      removeAfterCommit.push(...dropped.map((photo) => photo.storageKey), ...(oldSignature ? [oldSignature.storageKey] : []));
      for (const [position, photo] of kept.entries()) await repo.setPhotoPosition(tx, photo.id, position);

      // The registry and the lot: the device's record, then Effectué through the lifecycle.
      const day = parisDay(visitedAt);
      const deviceId = await linkMissionToDevice(tx, missionId);
      if (deviceId) {
        await applyVisitReport(tx, {
          deviceId,
          facts: { day, outcome, batteryExpiry: body.batteryExpiry, adultPadsExpiry: body.adultPadsExpiry, pediatricPadsPresent: body.pediatricPadsPresent, pediatricPadsExpiry },
        });
      }
      if (outcome !== SITE_INACCESSIBLE) {
        const progress = await repo.findProgress(tx, { missionId, technicianId });
        await saveMissionProgress(tx, {
          missionId,
          technicianId,
          patch: { isCompleted: true, ...(progress?.plannedVisitDate ? {} : { plannedVisitDate: new Date(`${day}T12:00:00Z`) }) },
        });
      }

      // The PV of this version, stored (a signed document does not change afterwards).
      const version = report.version + 1;
      const device = deviceId ? await repo.findDeviceSummary(tx, deviceId) : null;
      const technician = await repo.findTechnicianIdentity(tx, technicianId);
      if (!technician) throw notFound('Technicien introuvable');
      const photoBytes = await Promise.all(
        kept.map(async (photo) => {
          const bytes = await storage.read(photo.storageKey);
          if (!bytes) throw new AppError('CONFLICT', 'Une photo du rapport est introuvable dans le stockage : retirez-la puis enregistrez à nouveau');
          return photoForPdf(bytes);
        }),
      );
      const { manufacturer, model } = splitModel(locked.defibrillatorModel);
      const pdfBytes = await buildVisitReportPdf({
        charityName: config.CHARITY_NAME,
        productName: config.PRODUCT_NAME,
        generatedAt: new Date(),
        reportId: report.id,
        version,
        fingerprint,
        lotTitle: locked.lotTitle,
        device: {
          serialNumber: device?.serialNumber ?? locked.serialNumber,
          manufacturer: device?.manufacturer ?? manufacturer,
          model: device?.model ?? model,
          siteName: device?.siteName ?? locked.clientName,
          address: device?.address ?? locked.location,
          postalCode: device ? device.postalCode : locked.postalCode,
          city: device ? device.city : locked.city,
          operatorName: device?.operatorName ?? null,
        },
        technician,
        visitedAt,
        outcome,
        checklist: canonical.checklist,
        batteryExpiry: body.batteryExpiry,
        adultPadsExpiry: body.adultPadsExpiry,
        pediatricPadsPresent: body.pediatricPadsPresent,
        pediatricPadsExpiry,
        consumablesReplaced: body.consumablesReplaced,
        observations: body.observations,
        photos: photoBytes,
        signature: signature ? { signerName: body.signerName!, signedAt, image: signature.bytes } : null,
        unsignedReason: signature ? null : body.unsignedReason,
      });
      const serialPart = fileNamePart(locked.serialNumber ?? locked.title);
      const pdfName = `PV-maintenance-${serialPart}-v${version}.pdf`;
      const pdfFile = await storeFile(tx, { storage, technicianId, kind: 'visit-report', buffer: Buffer.from(pdfBytes), originalName: pdfName, invalidTypeMessage: 'Procès-verbal invalide' });
      written.push(pdfFile.storageKey);

      await repo.updateReport(tx, report.id, {
        deviceId,
        version,
        draft: null,
        draftUpdatedAt: null,
        visitedAt,
        outcome,
        checklist: canonical.checklist,
        batteryExpiry: body.batteryExpiry,
        adultPadsExpiry: body.adultPadsExpiry,
        pediatricPadsPresent: body.pediatricPadsPresent,
        pediatricPadsExpiry,
        consumablesReplaced: body.consumablesReplaced,
        observations: body.observations,
        signerName: canonical.signerName,
        signedAt,
        signatureFileId,
        unsignedReason: canonical.unsignedReason,
        fingerprint,
        pdfFileId: pdfFile.id,
        finalizedAt: report.finalizedAt ?? new Date(),
      });

      const to = locked.emailSite?.trim() || device?.siteEmail?.trim() || null;
      if (to) {
        const updated = deviceId ? await repo.findDeviceSummary(tx, deviceId) : null;
        await enqueueEmail(tx, {
          kind: 'visit-report',
          to,
          subject: `Procès-verbal de maintenance du ${formatDate(visitedAt)} — ${locked.clientName ?? locked.title}`,
          text: visitEmail(config, {
            model: [device?.manufacturer ?? manufacturer, device?.model ?? model].filter(Boolean).join(' '),
            serial: locked.serialNumber,
            day: visitedAt,
            technician: `${technician.firstName} ${technician.lastName}`,
            company: technician.companyName,
            outcome,
            nextMaintenance: updated?.nextMaintenanceDue ?? null,
            fingerprint,
            openingHours: null,
          }),
          attachments: [{ fileName: pdfName, contentType: 'application/pdf', storageKey: pdfFile.storageKey }],
        });
      }
      await repo.insertVersion(tx, { reportId: report.id, version, fingerprint, pdfFileId: pdfFile.id, emailedTo: to });
    });
  } catch (error) {
    for (const key of written) await removeStoredFile(storage, key);
    throw error;
  }
  for (const key of removeAfterCommit) await removeStoredFile(storage, key);
  return getVisitReportContext(db, storage, { auth, missionId });
}
