import { centsToEuros } from '@maillon/common/format';
import { RECRUITED_APPLICATION_STATUSES, type ApplicationStatus } from '@maillon/common/enums';
import {
  ADDRESS_MISSING,
  NO_SITE_EMAIL,
  TECHNICIAN_INFO_MISSING,
  VISIT_DATE_REQUIRED,
  visitDateToDate,
  type ApplicationTransition,
  type ApplicationWork,
  type BatchFigures,
  type DistanceResult,
  type MissionProgress,
  type Place,
  type ProgressPatch,
  type RouteMap,
  type RouteMapStop,
  type RouteStop,
  type SortRouteResponse,
  type TechnicianMission,
  type TechnicianLotComment,
  type WorkMission,
} from '@maillon/common/schemas/field-work';
import { VISIT_SLOT_MESSAGES, VISIT_WINDOW_TIMES, type VisitWindow } from '@maillon/common/visit-slot';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { audit } from '../../lib/audit';
import { geocode, planRoundTrip, tourLength, travelLeg, travelMatrix, type GeoPoint } from '../../lib/geo';
import { pageTotal } from '../../lib/pagination';
import { approximatePosition, technicianHomeColumns } from '../../lib/positions';
import { enforceRateLimit } from '../../lib/rate-limit';
import {
  applyPlannedSlotChange,
  cancelStaleInvitations,
  listAppointmentsOfVisits,
  sendVisitInvitation,
  type MailConfig,
} from '../appointments/appointments.service';
import { slotOf } from '../appointments/visit-time';
import type { AuthContext } from '../auth/auth.service';
import {
  cancelApplication,
  finishApplication,
  recomputeBatchFigures,
  saveMissionProgress,
} from '../lifecycle/lifecycle.service';
import { sortedModels } from '../mission-batches/mission-batches.service';
import * as repo from './field-work.repository';

const NOT_FOUND_APPLICATION = 'Candidature introuvable';
const NOT_FOUND_MISSION = 'Mission introuvable';
const LOT_FINISHED = 'Cette mission est terminée : elle ne peut plus être modifiée';
const VISIT_SLOT_SAVE_FIRST = 'Veuillez d’abord sauvegarder le créneau de passage';

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);
const isAdmin = (auth: AuthContext) => auth.role === 'admin';

/** A technician reaches only its own records; anything else answers 404 (decisions.md §2). */
function assertOwn(auth: AuthContext, technicianId: string, message: string): void {
  if (!isAdmin(auth) && auth.technicianId !== technicianId) throw new AppError('NOT_FOUND', message);
}

type ProgressFields = { [K in keyof repo.ProgressRow]?: repo.ProgressRow[K] | null };

function toProgress(missionId: string, technicianId: string, row: ProgressFields | null): MissionProgress {
  return {
    missionId,
    technicianId,
    plannedVisitDate: iso(row?.plannedVisitDate),
    visitWindow: row?.plannedVisitDate ? ((row.visitWindow as VisitWindow | null | undefined) ?? null) : null,
    visitStartTime: row?.plannedVisitDate && row.visitWindow ? (row.visitStartTime ?? null) : null,
    visitEndTime: row?.plannedVisitDate && row.visitWindow ? (row.visitEndTime ?? null) : null,
    isCompleted: row?.isCompleted ?? false,
    technicianComments: row?.technicianComments ?? null,
    adminComments: row?.adminComments ?? null,
    routePosition: row?.routePosition ?? null,
    updatedAt: iso(row?.updatedAt),
  };
}

function toWorkMission(row: repo.LotMissionRow, technicianId: string, appointment: WorkMission['appointment']): WorkMission {
  return {
    id: row.id,
    title: row.title,
    defibrillatorModel: row.defibrillatorModel,
    serialNumber: row.serialNumber,
    clientName: row.clientName,
    telSite: row.telSite,
    hasEmailSite: Boolean(row.hasEmailSite),
    observations: row.observations,
    location: row.location,
    postalCode: row.postalCode,
    city: row.city,
    department: row.department,
    latitude: row.latitude,
    longitude: row.longitude,
    completionLink: row.completionLink,
    progress: toProgress(row.id, technicianId, {
      plannedVisitDate: row.plannedVisitDate,
      visitWindow: row.visitWindow,
      visitStartTime: row.visitStartTime,
      visitEndTime: row.visitEndTime,
      isCompleted: row.isCompleted ?? false,
      technicianComments: row.technicianComments,
      adminComments: row.adminComments,
      routePosition: row.routePosition,
      updatedAt: row.progressUpdatedAt,
    }),
    appointment,
  };
}

export interface RecruitedMissionsQuery {
  auth: AuthContext;
  batchId?: string | undefined;
  status?: string | undefined;
  search?: string | undefined;
  unbatched?: boolean | undefined;
  limit: number;
  offset: number;
}

/**
 * GET /api/missions for a technician: the devices of the lots it is recruited on (application Recruté; a Terminé lot
 * is history, read through its application's work view), as the Recruté view shows them, with its own progress.
 * Scoped to the caller: another technician's lot (or an unknown one) gives an empty list, never its devices.
 * `unbatched` devices belong to no lot, so no technician has any.
 */
export async function listRecruitedMissions(db: Db, { auth, unbatched, limit, offset, ...filters }: RecruitedMissionsQuery): Promise<{ items: TechnicianMission[]; total: number }> {
  const technicianId = auth.technicianId;
  if (!technicianId || unbatched) return { items: [], total: 0 };
  const rows = await repo.listRecruitedMissions(db, { technicianId, ...filters, limit, offset });
  // The page's appointments in one statement, not one per lot.
  const appointments = await listAppointmentsOfVisits(db, { missionIds: rows.map((row) => row.id), technicianId });
  // Object.assign rather than a spread into a larger literal, which V8 copies slowly (decision 031).
  const items = rows.map((row) =>
    Object.assign(toWorkMission(row, technicianId, appointments.get(row.id) ?? null), { batchId: row.batchId, batchTitle: row.batchTitle, applicationId: row.applicationId }),
  );
  return { items, total: await pageTotal(rows, offset, () => repo.countRecruitedMissions(db, { technicianId, ...filters })) };
}

/** The application of a technician on a lot, readable by that technician (Recruté or Terminé) or the admin. */
function assertWorkApplication<Row extends { technicianId: string; status: string; batchId: string | null; lot: object | null }>(
  auth: AuthContext,
  row: Row | null,
): Row & { lot: NonNullable<Row['lot']>; batchId: string } {
  if (!row || !row.lot || !row.batchId) throw new AppError('NOT_FOUND', NOT_FOUND_APPLICATION);
  assertOwn(auth, row.technicianId, NOT_FOUND_APPLICATION);
  if (!isAdmin(auth) && !RECRUITED_APPLICATION_STATUSES.includes(row.status as (typeof RECRUITED_APPLICATION_STATUSES)[number])) {
    throw new AppError('NOT_FOUND', NOT_FOUND_APPLICATION);
  }
  return { ...row, lot: row.lot, batchId: row.batchId };
}

async function loadWorkApplication(db: Db, auth: AuthContext, applicationId: string) {
  return assertWorkApplication(auth, await repo.findApplicationWithLot(db, applicationId));
}

/**
 * GET /api/applications/{id}/work: the Recruté view in one statement (decisions 059, 068): the application with its
 * lot, cancellation rule and messages, and the lot's devices with their progress and appointments, which PostgreSQL
 * writes as JSON. The answer's JSON text: Node writes the rest and puts the devices' text in as it is.
 */
export async function getApplicationWorkText(db: Db, { auth, applicationId }: { auth: AuthContext; applicationId: string }): Promise<string> {
  const application = assertWorkApplication(auth, await repo.findApplicationWork(db, applicationId));
  const { lot, technicianId, work } = application;
  const commentRows = application.comments;
  const technicianComment = commentRows.find((c) => c.authorRole === 'technician');
  const answer: Omit<ApplicationWork, 'missions'> = {
    application: {
      id: application.id,
      status: application.status as ApplicationStatus,
      appliedAt: application.appliedAt.toISOString(),
      adminComment: application.adminComment,
      technicianId,
    },
    lot: {
      id: lot.id,
      title: lot.title,
      description: lot.description,
      price: centsToEuros(lot.priceCents),
      deadline: iso(lot.deadline),
      tags: lot.tags,
      departments: lot.departments,
      status: lot.status,
      defibrillatorsSum: lot.defibrillatorsSum,
      defibrillatorsDone: lot.defibrillatorsDone,
      amountPerDefib: centsToEuros(lot.amountPerDefibCents),
      finalRevenue: centsToEuros(lot.amountPerDefibCents * lot.defibrillatorsDone),
      models: sortedModels(work.models),
    },
    adminMessages: commentRows
      .filter((c) => c.authorRole === 'admin')
      .map((c) => ({ id: c.id, content: c.content, createdAt: c.createdAt })),
    technicianComment: { content: technicianComment?.content ?? '', updatedAt: technicianComment?.createdAt ?? null },
    cancellationBlocked: application.status !== 'Recruté' || application.cancellationBlocked,
    canFinish: application.status === 'Recruté' && work.count > 0 && work.done === work.count,
  };
  const text = JSON.stringify(answer);
  return `${text.slice(0, -1)},"missions":${work.missions}}`;
}

/** Technician: its own Recruté application; admin: forced finish. One transaction; idempotent. */
export async function completeApplication(
  db: Db,
  config: MailConfig,
  { auth, applicationId }: { auth: AuthContext; applicationId: string },
): Promise<ApplicationTransition> {
  return db.transaction(async (tx) => {
    const application = await repo.findApplication(tx, applicationId);
    if (!application) throw new AppError('NOT_FOUND', NOT_FOUND_APPLICATION);
    assertOwn(auth, application.technicianId, NOT_FOUND_APPLICATION);
    const force = isAdmin(auth);
    const result = await finishApplication(tx, { applicationId, force });
    if (force && application.status !== 'Terminé') {
      await audit(tx, { actorUserId: auth.userId, action: 'application.force-complete', entity: 'application', entityId: applicationId, before: { status: application.status }, after: { status: result.status } });
    }
    // Devices left undone moved out of the lot: their invitations out are cancelled with the change.
    await cancelStaleInvitations(tx, config, { technicianId: application.technicianId });
    return { id: applicationId, status: result.status as ApplicationStatus };
  });
}

/** Technician Annuler on its own Recruté application (decisions.md §4). One transaction; idempotent. */
export async function cancelOwnApplication(
  db: Db,
  config: MailConfig,
  { auth, applicationId }: { auth: AuthContext; applicationId: string },
): Promise<ApplicationTransition> {
  return db.transaction(async (tx) => {
    const application = await repo.findApplication(tx, applicationId);
    if (!application) throw new AppError('NOT_FOUND', NOT_FOUND_APPLICATION);
    assertOwn(auth, application.technicianId, NOT_FOUND_APPLICATION);
    const result = await cancelApplication(tx, { applicationId });
    await cancelStaleInvitations(tx, config, { technicianId: application.technicianId });
    return { id: applicationId, status: result.status as ApplicationStatus };
  });
}

/**
 * The device and the technician's recruitment on its lot. A technician must be that lot's recruit (else 404);
 * the admin may read any device, and write only where someone is recruited.
 */
async function loadRecruitment(db: Db, auth: AuthContext, ids: { missionId: string; technicianId: string }, purpose: 'read' | 'write') {
  assertOwn(auth, ids.technicianId, NOT_FOUND_MISSION);
  const row = await repo.findMissionRecruitment(db, ids);
  if (!row) throw new AppError('NOT_FOUND', NOT_FOUND_MISSION);
  if (!row.applicationId || !row.batchId) {
    if (isAdmin(auth) && purpose === 'read' && (await repo.technicianExists(db, ids.technicianId))) return row;
    throw new AppError('NOT_FOUND', NOT_FOUND_MISSION);
  }
  return row;
}

export async function getMissionProgress(db: Db, { auth, missionId, technicianId }: { auth: AuthContext; missionId: string; technicianId: string }): Promise<MissionProgress> {
  await loadRecruitment(db, auth, { missionId, technicianId }, 'read');
  return toProgress(missionId, technicianId, await repo.findProgress(db, { missionId, technicianId }));
}

export async function listMissionProgress(db: Db, { auth, technicianId, limit, offset }: { auth: AuthContext; technicianId: string; limit: number; offset: number }) {
  assertOwn(auth, technicianId, 'Technicien introuvable');
  if (isAdmin(auth) && !(await repo.technicianExists(db, technicianId))) throw new AppError('NOT_FOUND', 'Technicien introuvable');
  const { rows, total } = await repo.listTechnicianProgress(db, { technicianId, limit, offset });
  return { items: rows.map((row) => toProgress(row.missionId, row.technicianId, row)), total };
}

/**
 * Saves a device's progress (date, Effectué / À faire, comment) for the lot's recruited technician; the lot figures
 * and the open invoice are recomputed with it. Refused once the lot is finished. One call to the database
 * (repo.saveDeviceProgress, decision 070); when the slot changes while an invitation to the site is out, the progress
 * and the invitation are updated in one transaction.
 */
export async function updateMissionProgress(
  db: Db,
  config: MailConfig,
  { auth, missionId, technicianId, patch }: { auth: AuthContext; missionId: string; technicianId: string; patch: ProgressPatch },
): Promise<MissionProgress> {
  assertOwn(auth, technicianId, NOT_FOUND_MISSION);
  const columns: repo.DeviceProgressPatch = {
    ...(patch.plannedVisitDate !== undefined ? { plannedVisitDate: patch.plannedVisitDate === null ? null : visitDateToDate(patch.plannedVisitDate).toISOString() } : {}),
    ...windowPatch(patch),
    ...(patch.isCompleted !== undefined ? { isCompleted: patch.isCompleted } : {}),
    ...(patch.technicianComments !== undefined ? { technicianComments: patch.technicianComments?.trim() || null } : {}),
  };
  const ids = { missionId, technicianId, patch: columns };
  const saved = await repo.saveDeviceProgress(db, { ...ids, invitedOk: false });
  if (saved.outcome !== 'invited') return toProgress(missionId, technicianId, savedProgress(saved));
  return db.transaction(async (tx) => {
    const row = savedProgress(await repo.saveDeviceProgress(tx, { ...ids, invitedOk: true }));
    // The site's link and answer were about the slot it was sent; a cleared date cancels its invitation.
    const slot = slotOf({ date: row.plannedVisitDate, window: row.visitWindow, startTime: row.visitStartTime, endTime: row.visitEndTime });
    await applyPlannedSlotChange(tx, config, { missionId, technicianId, slot });
    return toProgress(missionId, technicianId, row);
  });
}

/** The progress repo.saveDeviceProgress saved, or the error its outcome stands for. */
function savedProgress({ outcome, progress }: Awaited<ReturnType<typeof repo.saveDeviceProgress>>) {
  if (progress) return progress;
  if (outcome === 'finished') throw new AppError('INVALID_TRANSITION', LOT_FINISHED);
  if (outcome === 'window-without-date') {
    throw new AppError('VALIDATION_ERROR', VISIT_SLOT_MESSAGES.windowWithoutDate, { plannedVisitDate: VISIT_SLOT_MESSAGES.windowWithoutDate });
  }
  throw new AppError('NOT_FOUND', NOT_FOUND_MISSION);
}

/**
 * The window columns a patch writes: absent = kept (a client that only sends plannedVisitDate keeps working); a
 * cleared date clears the window; matin and après-midi get their fixed hours, a range its own. A window sent without
 * a date for a device that has none is refused by the database ('window-without-date').
 */
function windowPatch(patch: ProgressPatch): repo.DeviceProgressPatch {
  if (patch.plannedVisitDate === null) return { visitWindow: null, visitStartTime: null, visitEndTime: null };
  if (patch.visitWindow === undefined) return {};
  if (patch.visitWindow === null) return { visitWindow: null, visitStartTime: null, visitEndTime: null };
  if (patch.visitWindow === 'range') return { visitWindow: 'range', visitStartTime: patch.visitStartTime ?? null, visitEndTime: patch.visitEndTime ?? null };
  const times = VISIT_WINDOW_TIMES[patch.visitWindow];
  return { visitWindow: patch.visitWindow, visitStartTime: times.start, visitEndTime: times.end };
}

/** Admin comment on a device for a technician (admin only, non-empty). */
export async function updateAdminComment(
  db: Db,
  { auth, missionId, technicianId, adminComments }: { auth: AuthContext; missionId: string; technicianId: string; adminComments: string },
): Promise<MissionProgress> {
  await loadRecruitment(db, auth, { missionId, technicianId }, 'read');
  return db.transaction(async (tx) => {
    const row = await saveMissionProgress(tx, { missionId, technicianId, patch: { adminComments } });
    await audit(tx, { actorUserId: auth.userId, action: 'progress.admin-comment', entity: 'technician_mission_data', entityId: `${missionId}/${technicianId}`, after: { adminComments } });
    return toProgress(missionId, technicianId, row);
  });
}

/** Lot figures recomputed from the truth; the client's number is ignored (decisions.md §4). */
export async function refreshBatchFigures(db: Db, { auth, batchId }: { auth: AuthContext; batchId: string }): Promise<BatchFigures> {
  return db.transaction(async (tx) => {
    // Only the lot's recruit (or the admin) may trigger it; anyone else gets 404.
    if (!isAdmin(auth) && (!auth.technicianId || !(await repo.isRecruitedOnBatch(tx, { batchId, technicianId: auth.technicianId })))) {
      throw new AppError('NOT_FOUND', 'Lot introuvable');
    }
    await repo.lockBatchRow(tx, batchId);
    const figures = await recomputeBatchFigures(tx, batchId);
    if (!figures) throw new AppError('NOT_FOUND', 'Lot introuvable');
    return {
      id: batchId,
      defibrillatorsSum: figures.defibrillatorsSum,
      defibrillatorsDone: figures.defibrillatorsDone,
      amountPerDefib: centsToEuros(figures.amountPerDefibCents),
    };
  });
}

/** The technician's per-lot "Commentaire pour l'admin": one comments row (authorRole technician) per lot. */
export async function getTechnicianLotComment(db: Db, { auth, applicationId }: { auth: AuthContext; applicationId: string }): Promise<TechnicianLotComment> {
  const application = await loadWorkApplication(db, auth, applicationId);
  const row = await repo.findTechnicianLotComment(db, { batchId: application.batchId, technicianId: application.technicianId });
  return { content: row?.content ?? '', updatedAt: iso(row?.createdAt) };
}

export async function saveTechnicianLotComment(
  db: Db,
  { auth, applicationId, content }: { auth: AuthContext; applicationId: string; content: string },
): Promise<TechnicianLotComment> {
  const application = await loadWorkApplication(db, auth, applicationId);
  // One call: the application locked, so that autosaves sent together never leave two comments (decision 070).
  return repo.saveTechnicianLotComment(db, { applicationId, batchId: application.batchId, technicianId: application.technicianId, content: content.trim() });
}

const parisDay = (date: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);

/**
 * "Informer client": sends the site the visit (day and window) with its personal link and the calendar invitation,
 * through the outbox in one transaction (appointments module). Needs a saved visit date (the one sent, if any, must be
 * the saved one, and the window too) and a site e-mail.
 */
export async function notifyClient(
  db: Db,
  config: MailConfig,
  {
    auth,
    missionId,
    technicianId,
    visitDate,
    visitWindow,
    origin,
  }: { auth: AuthContext; missionId: string; technicianId: string; visitDate?: string | undefined; visitWindow?: VisitWindow | null | undefined; origin: string },
) {
  const recruitment = await loadRecruitment(db, auth, { missionId, technicianId }, 'write');
  if (recruitment.applicationStatus !== 'Recruté') throw new AppError('INVALID_TRANSITION', LOT_FINISHED);
  return db.transaction(async (tx) => {
    const progress = await repo.findProgress(tx, { missionId, technicianId });
    const saved = progress?.plannedVisitDate ?? null;
    if (!saved) throw new AppError('BAD_REQUEST', VISIT_DATE_REQUIRED);
    if (visitDate && parisDay(visitDateToDate(visitDate)) !== parisDay(saved)) throw new AppError('BAD_REQUEST', VISIT_DATE_REQUIRED);
    if (visitWindow !== undefined && (visitWindow ?? null) !== (progress?.visitWindow ?? null)) throw new AppError('BAD_REQUEST', VISIT_SLOT_SAVE_FIRST);
    if (!recruitment.emailSite?.trim()) throw new AppError('BAD_REQUEST', NO_SITE_EMAIL);
    if (!(await repo.findTechnicianContact(tx, technicianId))) throw new AppError('NOT_FOUND', 'Technicien introuvable');
    await enforceRateLimit(tx, `client-notification:${missionId}:${technicianId}`, 5, 60 * 60_000);
    await sendVisitInvitation(tx, config, { missionId, technicianId, origin, reason: 'informed' });
    return { success: true as const, message: 'Client informé', visitDate: saved.toISOString() };
  });
}

function placeQuery(place: Place) {
  return typeof place === 'string' ? { address: place } : place;
}

/** POST /api/calculate-distance: offline geocoding, then OSRM or the estimate. */
export async function calculateDistance(config: Pick<Config, 'OSRM_URL'>, { origin, destination }: { origin: Place; destination: Place }): Promise<DistanceResult> {
  const from = geocode(placeQuery(origin));
  const to = geocode(placeQuery(destination));
  if (!from || !to) {
    return { success: false, distance: null, duration: null, source: null, message: !from ? 'Adresse de départ introuvable' : 'Adresse d’arrivée introuvable' };
  }
  const leg = await travelLeg(from, to, config.OSRM_URL);
  return { success: true, distance: leg.distance, duration: leg.duration, source: leg.source };
}

function sortedMessage(count: number): string {
  return count === 1 ? '1 défibrillateur trié par proximité' : `${count} défibrillateurs triés par proximité`;
}

/**
 * "Trier pour économiser ma route": orders the lot's undone devices as a round trip from the technician's address
 * (nearest neighbour then 2-opt), stores the order for that technician, and says how much it saves against the
 * order shown before. Devices that cannot be located go last.
 */
export async function sortRoute(
  db: Db,
  config: Pick<Config, 'OSRM_URL'>,
  { auth, applicationId }: { auth: AuthContext; applicationId: string },
): Promise<SortRouteResponse> {
  const application = await loadWorkApplication(db, auth, applicationId);
  if (application.status !== 'Recruté') throw new AppError('INVALID_TRANSITION', LOT_FINISHED);
  const technician = await repo.findTechnicianContact(db, application.technicianId);
  if (!technician) throw new AppError('BAD_REQUEST', TECHNICIAN_INFO_MISSING);
  if (!technician.address?.trim() || !technician.postalCode?.trim() || !technician.city?.trim()) throw new AppError('BAD_REQUEST', ADDRESS_MISSING);
  const home =
    geocode({ address: technician.address, postalCode: technician.postalCode, city: technician.city }) ??
    geocode({ latitude: technician.latitude, longitude: technician.longitude });
  if (!home) throw new AppError('BAD_REQUEST', ADDRESS_MISSING);

  const rows = await repo.listLotMissionsWithProgress(db, { batchId: application.batchId, technicianId: application.technicianId });
  const undone = rows.filter((row) => !row.isCompleted);
  const located: { id: string; point: GeoPoint }[] = [];
  const unlocated: string[] = [];
  for (const row of undone) {
    const point = geocode({ latitude: row.latitude, longitude: row.longitude, postalCode: row.postalCode, city: row.city, address: row.location, department: row.department });
    if (point) located.push({ id: row.id, point });
    else unlocated.push(row.id);
  }

  const matrix = await travelMatrix([home, ...located.map((l) => l.point)], config.OSRM_URL);
  const current = located.map((_, i) => i + 1);
  const order = planRoundTrip(matrix.distances, current);
  const savedMetres = Math.max(0, tourLength(matrix.distances, current) - tourLength(matrix.distances, order));

  const stops: RouteStop[] = [];
  let previous = 0;
  let totalDistance = 0;
  let totalDuration = 0;
  for (const [k, index] of order.entries()) {
    const distance = Math.round(matrix.distances[previous]![index]!);
    const duration = Math.round(matrix.durations[previous]![index]!);
    totalDistance += distance;
    totalDuration += duration;
    stops.push({ missionId: located[index - 1]!.id, position: k + 1, distance, duration });
    previous = index;
  }
  const returnDistance = order.length > 0 ? Math.round(matrix.distances[previous]![0]!) : null;
  if (order.length > 0) {
    totalDistance += returnDistance ?? 0;
    totalDuration += Math.round(matrix.durations[previous]![0]!);
  }
  for (const [k, missionId] of unlocated.entries()) stops.push({ missionId, position: order.length + k + 1, distance: null, duration: null });

  await db.transaction(async (tx) => {
    await repo.saveRouteOrder(tx, {
      technicianId: application.technicianId,
      ordered: stops.map((s) => s.missionId),
      cleared: rows.filter((row) => row.isCompleted).map((row) => row.id),
    });
  });

  return {
    sortedCount: stops.length,
    message: sortedMessage(stops.length),
    savedKm: Math.round(savedMetres / 100) / 10,
    totalDistance,
    totalDuration,
    returnDistance,
    source: matrix.source,
    stops,
  };
}

/**
 * GET /api/applications/{id}/route-map: the Recruté view's map. Each device at its own coordinates, else placed by its
 * postal code / city (approximate); numbered like the list (the technician's route order first, docs/decisions/005);
 * the round trip from the technician's address through the undone devices in that order, OSRM when configured.
 */
export async function getRouteMap(db: Db, config: Pick<Config, 'OSRM_URL'>, { auth, applicationId }: { auth: AuthContext; applicationId: string }): Promise<RouteMap> {
  const application = await loadWorkApplication(db, auth, applicationId);
  const [technician, rows] = await Promise.all([
    repo.findTechnicianContact(db, application.technicianId),
    repo.listLotMissionsWithProgress(db, { batchId: application.batchId, technicianId: application.technicianId }),
  ]);
  let home: GeoPoint | null = null;
  if (technician?.latitude != null && technician.longitude != null) home = { lat: technician.latitude, lon: technician.longitude };
  else if (technician) {
    const located = technicianHomeColumns(technician);
    if (located.latitude !== null && located.longitude !== null) home = { lat: located.latitude, lon: located.longitude };
  }

  const stops: RouteMapStop[] = [];
  let unlocated = 0;
  for (const [index, row] of rows.entries()) {
    const approx = approximatePosition({ address: row.location, postalCode: row.postalCode, city: row.city, department: row.department });
    const own = row.latitude !== null && row.longitude !== null ? { lat: row.latitude, lon: row.longitude } : null;
    const point = own ?? approx;
    if (!point) {
      unlocated += 1;
      continue;
    }
    // Coordinates equal to the commune's reference point were filled in from the postal code (moderation).
    const approximate = !own || (approx !== null && own.lat === approx.lat && own.lon === approx.lon);
    stops.push({
      missionId: row.id,
      number: index + 1,
      title: row.title,
      defibrillatorModel: row.defibrillatorModel,
      lat: point.lat,
      lon: point.lon,
      approximate,
      isCompleted: Boolean(row.isCompleted),
    });
  }
  const undone = stops.filter((stop) => !stop.isCompleted);
  let route: RouteMap['route'] = null;
  if (home && undone.length > 0) {
    const matrix = await travelMatrix([home, ...undone], config.OSRM_URL);
    let distance = 0;
    let duration = 0;
    let previous = 0;
    for (let i = 1; i <= undone.length; i += 1) {
      distance += matrix.distances[previous]![i]!;
      duration += matrix.durations[previous]![i]!;
      previous = i;
    }
    distance += matrix.distances[previous]![0]!;
    duration += matrix.durations[previous]![0]!;
    route = { distance: Math.round(distance), duration: Math.round(duration), source: matrix.source, order: undone.map((stop) => stop.missionId) };
  }
  const undoneRows = rows.filter((row) => !row.isCompleted);
  return { home, stops, unlocated, route, sorted: undoneRows.length > 0 && undoneRows.every((row) => row.routePosition !== null) };
}
