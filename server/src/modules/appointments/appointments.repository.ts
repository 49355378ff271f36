import { and, asc, eq, gte, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { RECRUITED_APPLICATION_STATUSES } from '@maillon/common/enums';
import type { DbOrTx } from '../../db/client';
import { preparedQuery } from '../../db/prepared-queries';
import {
  applications,
  calendarFeeds,
  missionBatches,
  missions,
  RECRUITED_STATUSES_SQL,
  reminderDeliveries,
  technicianMissionData,
  technicians,
  users,
  visitAppointments,
  visitLinks,
} from '../../db/schema';

/** Drizzle queries of the appointments module, explicit columns only. */

export const appointmentColumns = {
  id: visitAppointments.id,
  missionId: visitAppointments.missionId,
  technicianId: visitAppointments.technicianId,
  uid: visitAppointments.uid,
  sequence: visitAppointments.sequence,
  siteEmail: visitAppointments.siteEmail,
  invitedAt: visitAppointments.invitedAt,
  invitedDate: visitAppointments.invitedDate,
  invitedWindow: visitAppointments.invitedWindow,
  invitedStartTime: visitAppointments.invitedStartTime,
  invitedEndTime: visitAppointments.invitedEndTime,
  lastCancelledAt: visitAppointments.lastCancelledAt,
  response: visitAppointments.response,
  respondedAt: visitAppointments.respondedAt,
  proposedDate: visitAppointments.proposedDate,
  proposedWindow: visitAppointments.proposedWindow,
  proposedStartTime: visitAppointments.proposedStartTime,
  proposedEndTime: visitAppointments.proposedEndTime,
  proposedMessage: visitAppointments.proposedMessage,
  decision: visitAppointments.decision,
  decidedAt: visitAppointments.decidedAt,
  updatedAt: visitAppointments.updatedAt,
};

export async function findAppointment(db: DbOrTx, { missionId, technicianId }: { missionId: string; technicianId: string }) {
  const [row] = await db
    .select(appointmentColumns)
    .from(visitAppointments)
    .where(and(eq(visitAppointments.missionId, missionId), eq(visitAppointments.technicianId, technicianId)))
    .limit(1);
  return row ?? null;
}
export type AppointmentRow = NonNullable<Awaited<ReturnType<typeof findAppointment>>>;

/** The appointments of the given visits of one technician: one lookup each on visit_appointments_visit_unique. */
export async function listVisitsAppointments(db: DbOrTx, { missionIds, technicianId }: { missionIds: string[]; technicianId: string }) {
  const query = preparedQuery(db, 'visits-appointments', () =>
    db
      .select(appointmentColumns)
      .from(visitAppointments)
      .where(and(sql`${visitAppointments.missionId} = any(${sql.placeholder('missionIds')}::uuid[])`, eq(visitAppointments.technicianId, sql.placeholder('technicianId'))))
      .prepare('maillon_visits_appointments'),
  );
  return query.execute({ missionIds, technicianId });
}

/** The appointment of a visit, created if missing, locked for the rest of the transaction. */
export async function lockAppointment(tx: DbOrTx, { missionId, technicianId, firstUid }: { missionId: string; technicianId: string; firstUid: string }) {
  await tx.insert(visitAppointments).values({ missionId, technicianId, uid: firstUid }).onConflictDoNothing();
  const [row] = await tx
    .select(appointmentColumns)
    .from(visitAppointments)
    .where(and(eq(visitAppointments.missionId, missionId), eq(visitAppointments.technicianId, technicianId)))
    .for('update')
    .limit(1);
  return row!;
}

export async function findAppointmentById(db: DbOrTx, id: string) {
  const [row] = await db.select(appointmentColumns).from(visitAppointments).where(eq(visitAppointments.id, id)).limit(1);
  return row ?? null;
}

export async function lockAppointmentById(tx: DbOrTx, id: string) {
  const [row] = await tx.select(appointmentColumns).from(visitAppointments).where(eq(visitAppointments.id, id)).for('update').limit(1);
  return row ?? null;
}

export async function updateAppointment(tx: DbOrTx, id: string, values: Partial<typeof visitAppointments.$inferInsert>) {
  await tx.update(visitAppointments).set(values).where(eq(visitAppointments.id, id));
}

/**
 * Everything an invitation or a page about a visit shows: the device, its site, the technician and the planned slot
 * (null fields when the technician has no progress record on the device).
 */
export async function findVisitDetails(db: DbOrTx, { missionId, technicianId }: { missionId: string; technicianId: string }) {
  const [row] = await db
    .select({
      tmdId: technicianMissionData.id,
      plannedVisitDate: technicianMissionData.plannedVisitDate,
      visitWindow: technicianMissionData.visitWindow,
      visitStartTime: technicianMissionData.visitStartTime,
      visitEndTime: technicianMissionData.visitEndTime,
      isCompleted: technicianMissionData.isCompleted,
      missionTitle: missions.title,
      batchId: missions.batchId,
      clientName: missions.clientName,
      defibrillatorModel: missions.defibrillatorModel,
      serialNumber: missions.serialNumber,
      visitType: missions.visitType,
      location: missions.location,
      postalCode: missions.postalCode,
      city: missions.city,
      telSite: missions.telSite,
      emailSite: missions.emailSite,
      technicianFirstName: technicians.firstName,
      technicianLastName: technicians.lastName,
      technicianEmail: technicians.email,
      technicianPhone: technicians.phone,
      companyName: technicians.companyName,
    })
    .from(missions)
    .innerJoin(technicians, eq(technicians.id, technicianId))
    .leftJoin(technicianMissionData, and(eq(technicianMissionData.missionId, missions.id), eq(technicianMissionData.technicianId, technicianId)))
    .where(eq(missions.id, missionId))
    .limit(1);
  return row ?? null;
}
export type VisitDetails = NonNullable<Awaited<ReturnType<typeof findVisitDetails>>>;

/** The technician's Recruté application on the device's current lot, if any, with the lot's status. */
export async function findActiveRecruitment(db: DbOrTx, { missionId, technicianId }: { missionId: string; technicianId: string }) {
  const [row] = await db
    .select({ applicationId: applications.id, applicationStatus: applications.status, batchId: missions.batchId, lotStatus: missionBatches.status })
    .from(missions)
    .innerJoin(applications, and(eq(applications.batchId, missions.batchId), eq(applications.technicianId, technicianId), inArray(applications.status, [...RECRUITED_APPLICATION_STATUSES])))
    .innerJoin(missionBatches, eq(missionBatches.id, missions.batchId))
    .where(eq(missions.id, missionId))
    .limit(1);
  return row ?? null;
}

// --- Links ---

export async function insertLink(tx: DbOrTx, values: { tokenHash: string; appointmentId: string; expiresAt: Date }) {
  await tx.insert(visitLinks).values(values);
}

/** Closes the appointment's open links (a newer one replaces them, or the visit is cancelled). */
export async function closeOpenLinks(tx: DbOrTx, appointmentId: string, reason: 'replaced' | 'cancelled') {
  await tx
    .update(visitLinks)
    .set({ closedAt: new Date(), closedReason: reason })
    .where(and(eq(visitLinks.appointmentId, appointmentId), isNull(visitLinks.usedAt), isNull(visitLinks.closedAt)));
}

export async function findLink(db: DbOrTx, tokenHash: string) {
  const [row] = await db
    .select({
      tokenHash: visitLinks.tokenHash,
      appointmentId: visitLinks.appointmentId,
      expiresAt: visitLinks.expiresAt,
      usedAt: visitLinks.usedAt,
      usedAction: visitLinks.usedAction,
      closedAt: visitLinks.closedAt,
      closedReason: visitLinks.closedReason,
    })
    .from(visitLinks)
    .where(eq(visitLinks.tokenHash, tokenHash))
    .limit(1);
  return row ?? null;
}
export type LinkRow = NonNullable<Awaited<ReturnType<typeof findLink>>>;

/** Uses a link once: only an open, unexpired link is claimed, even under concurrent submissions. */
export async function claimLink(tx: DbOrTx, tokenHash: string, action: 'confirmed' | 'proposed'): Promise<boolean> {
  const rows = await tx
    .update(visitLinks)
    .set({ usedAt: new Date(), usedAction: action })
    .where(and(eq(visitLinks.tokenHash, tokenHash), isNull(visitLinks.usedAt), isNull(visitLinks.closedAt), sql`${visitLinks.expiresAt} > now()`))
    .returning({ tokenHash: visitLinks.tokenHash });
  return rows.length > 0;
}

// --- Cancellations ---

/**
 * Invitations still out whose visit no longer stands: the date was cleared, the technician is no longer recruited on
 * the device's lot (cancelled), or the lot finished without the device (moved to the system lot). Visits before
 * `fromDay` are left alone.
 */
export async function findStaleInvitations(db: DbOrTx, { fromDay, technicianId, limit }: { fromDay: string; technicianId?: string; limit: number }) {
  return db
    .select({ id: visitAppointments.id })
    .from(visitAppointments)
    .where(
      and(
        isNotNull(visitAppointments.invitedAt),
        gte(visitAppointments.invitedDate, fromDay),
        technicianId ? eq(visitAppointments.technicianId, technicianId) : undefined,
        sql`not exists (
          select 1 from technician_mission_data d
          join missions m on m.id = d.mission_id
          join applications ap on ap.batch_id = m.batch_id and ap.technician_id = d.technician_id and ap.status in (${sql.raw(RECRUITED_STATUSES_SQL)})
          where d.mission_id = ${visitAppointments.missionId} and d.technician_id = ${visitAppointments.technicianId}
            and d.planned_visit_date is not null
        )`,
      ),
    )
    .orderBy(asc(visitAppointments.invitedDate))
    .limit(limit);
}

/** The invitations the writes' triggers marked for a check of their visit (migration 0045), on their partial index. */
export async function findInvitationsToCheck(db: DbOrTx, { limit }: { limit: number }) {
  return db
    .select({ id: visitAppointments.id })
    .from(visitAppointments)
    .where(eq(visitAppointments.standingCheck, true))
    .orderBy(asc(visitAppointments.invitedDate))
    .limit(limit);
}

/** The check is done: only the mark changes (not updated_at), under the caller's lock of the row. */
export async function clearStandingCheck(tx: DbOrTx, id: string): Promise<void> {
  await tx.execute(sql`update visit_appointments set standing_check = false where id = ${id} and standing_check`);
}

export async function isVisitStanding(db: DbOrTx, { missionId, technicianId }: { missionId: string; technicianId: string }): Promise<boolean> {
  const result = await db.execute<{ ok: boolean }>(sql`
    select exists (
      select 1 from technician_mission_data d
      join missions m on m.id = d.mission_id
      join applications ap on ap.batch_id = m.batch_id and ap.technician_id = d.technician_id and ap.status in (${sql.raw(RECRUITED_STATUSES_SQL)})
      where d.mission_id = ${missionId} and d.technician_id = ${technicianId} and d.planned_visit_date is not null
    ) as ok`);
  return Boolean(result.rows[0]?.ok);
}

// --- Calendar feed ---

export async function findFeedByTechnician(db: DbOrTx, technicianId: string) {
  const [row] = await db
    .select({ technicianId: calendarFeeds.technicianId, createdAt: calendarFeeds.createdAt })
    .from(calendarFeeds)
    .where(eq(calendarFeeds.technicianId, technicianId))
    .limit(1);
  return row ?? null;
}

export async function findFeedByTokenHash(db: DbOrTx, tokenHash: string) {
  const [row] = await db
    .select({ technicianId: calendarFeeds.technicianId, firstName: technicians.firstName, status: technicians.status, isActive: users.isActive })
    .from(calendarFeeds)
    .innerJoin(technicians, eq(technicians.id, calendarFeeds.technicianId))
    .innerJoin(users, eq(users.id, technicians.userId))
    .where(eq(calendarFeeds.tokenHash, tokenHash))
    .limit(1);
  return row ?? null;
}

/** One statement: the old token's row is replaced, so the old URL stops working when this commits. */
export async function replaceFeedToken(tx: DbOrTx, { technicianId, tokenHash }: { technicianId: string; tokenHash: string }) {
  const [row] = await tx
    .insert(calendarFeeds)
    .values({ technicianId, tokenHash })
    .onConflictDoUpdate({ target: calendarFeeds.technicianId, set: { tokenHash, createdAt: sql`now()` } })
    .returning({ createdAt: calendarFeeds.createdAt });
  return row!;
}

/** The technician's planned visits from `since` on, on lots where it is (or was, for done devices) the recruit. */
export async function listFeedVisits(db: DbOrTx, { technicianId, since }: { technicianId: string; since: Date }) {
  return db
    .select({
      tmdId: technicianMissionData.id,
      missionId: technicianMissionData.missionId,
      plannedVisitDate: technicianMissionData.plannedVisitDate,
      visitWindow: technicianMissionData.visitWindow,
      visitStartTime: technicianMissionData.visitStartTime,
      visitEndTime: technicianMissionData.visitEndTime,
      isCompleted: technicianMissionData.isCompleted,
      technicianComments: technicianMissionData.technicianComments,
      tmdUpdatedAt: technicianMissionData.updatedAt,
      title: missions.title,
      clientName: missions.clientName,
      defibrillatorModel: missions.defibrillatorModel,
      serialNumber: missions.serialNumber,
      visitType: missions.visitType,
      location: missions.location,
      postalCode: missions.postalCode,
      city: missions.city,
      telSite: missions.telSite,
      observations: missions.observations,
      completionLink: missions.completionLink,
      lotTitle: missionBatches.title,
      uid: visitAppointments.uid,
      sequence: visitAppointments.sequence,
      response: visitAppointments.response,
      appointmentUpdatedAt: visitAppointments.updatedAt,
    })
    .from(technicianMissionData)
    .innerJoin(missions, eq(missions.id, technicianMissionData.missionId))
    .innerJoin(missionBatches, eq(missionBatches.id, missions.batchId))
    .innerJoin(
      applications,
      and(eq(applications.batchId, missions.batchId), eq(applications.technicianId, technicianMissionData.technicianId), inArray(applications.status, [...RECRUITED_APPLICATION_STATUSES])),
    )
    .leftJoin(
      visitAppointments,
      and(eq(visitAppointments.missionId, technicianMissionData.missionId), eq(visitAppointments.technicianId, technicianMissionData.technicianId)),
    )
    .where(and(eq(technicianMissionData.technicianId, technicianId), gte(technicianMissionData.plannedVisitDate, since)))
    .orderBy(asc(technicianMissionData.plannedVisitDate), asc(technicianMissionData.id))
    .limit(2000);
}
export type FeedVisitRow = Awaited<ReturnType<typeof listFeedVisits>>[number];

// --- Reminders ---

/** Undone visits planned within [from, to) on lots where the technician is recruited (Recruté) and the lot is active. */
export async function listVisitsBetween(db: DbOrTx, { from, to }: { from: Date; to: Date }) {
  return db
    .select({
      tmdId: technicianMissionData.id,
      missionId: technicianMissionData.missionId,
      technicianId: technicianMissionData.technicianId,
      plannedVisitDate: technicianMissionData.plannedVisitDate,
      visitWindow: technicianMissionData.visitWindow,
      visitStartTime: technicianMissionData.visitStartTime,
      visitEndTime: technicianMissionData.visitEndTime,
      title: missions.title,
      clientName: missions.clientName,
      defibrillatorModel: missions.defibrillatorModel,
      serialNumber: missions.serialNumber,
      location: missions.location,
      postalCode: missions.postalCode,
      city: missions.city,
      telSite: missions.telSite,
      emailSite: missions.emailSite,
      technicianEmail: technicians.email,
      technicianFirstName: technicians.firstName,
      technicianLastName: technicians.lastName,
      companyName: technicians.companyName,
      response: visitAppointments.response,
      decision: visitAppointments.decision,
    })
    .from(technicianMissionData)
    .innerJoin(missions, eq(missions.id, technicianMissionData.missionId))
    .innerJoin(missionBatches, and(eq(missionBatches.id, missions.batchId), eq(missionBatches.status, 'active')))
    .innerJoin(
      applications,
      and(eq(applications.batchId, missions.batchId), eq(applications.technicianId, technicianMissionData.technicianId), eq(applications.status, 'Recruté')),
    )
    .innerJoin(technicians, eq(technicians.id, technicianMissionData.technicianId))
    .innerJoin(users, and(eq(users.id, technicians.userId), eq(users.isActive, true)))
    .leftJoin(
      visitAppointments,
      and(eq(visitAppointments.missionId, technicianMissionData.missionId), eq(visitAppointments.technicianId, technicianMissionData.technicianId)),
    )
    .where(
      and(
        isNotNull(technicianMissionData.plannedVisitDate),
        eq(technicianMissionData.isCompleted, false),
        gte(technicianMissionData.plannedVisitDate, from),
        lt(technicianMissionData.plannedVisitDate, to),
      ),
    )
    .orderBy(asc(technicians.id), asc(technicianMissionData.routePosition), asc(technicianMissionData.visitStartTime), asc(missions.title));
}
export type UpcomingVisitRow = Awaited<ReturnType<typeof listVisitsBetween>>[number];

/** Active lots (not the system one) whose deadline falls in [from, to) and that still have undone devices. */
export async function listLotsDueBetween(db: DbOrTx, { from, to }: { from: Date; to: Date }) {
  return db
    .select({
      id: missionBatches.id,
      title: missionBatches.title,
      deadline: missionBatches.deadline,
      defibrillatorsSum: missionBatches.defibrillatorsSum,
      defibrillatorsDone: missionBatches.defibrillatorsDone,
      technicianFirstName: technicians.firstName,
      technicianLastName: technicians.lastName,
    })
    .from(missionBatches)
    .leftJoin(applications, and(eq(applications.batchId, missionBatches.id), eq(applications.status, 'Recruté')))
    .leftJoin(technicians, eq(technicians.id, applications.technicianId))
    .where(
      and(
        eq(missionBatches.status, 'active'),
        eq(missionBatches.isSystem, false),
        gte(missionBatches.deadline, from),
        lt(missionBatches.deadline, to),
        sql`${missionBatches.defibrillatorsDone} < ${missionBatches.defibrillatorsSum}`,
      ),
    )
    .orderBy(asc(missionBatches.deadline), asc(missionBatches.title))
    .limit(500);
}

export async function listAdminEmails(db: DbOrTx): Promise<string[]> {
  const rows = await db
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.isActive, true)))
    .orderBy(asc(users.email));
  return rows.map((r) => r.email);
}

/**
 * Marks reminders as sent for these items: returns the ones newly marked. A concurrent transaction marking the same
 * rows waits on the unique key, then gets nothing back.
 */
export async function markReminders(
  tx: DbOrTx,
  { kind, recipient, day, itemIds }: { kind: 'technician-eve' | 'site-eve' | 'deadline-digest'; recipient: string; day: string; itemIds: string[] },
): Promise<string[]> {
  if (itemIds.length === 0) return [];
  const rows = await tx
    .insert(reminderDeliveries)
    .values(itemIds.map((itemId) => ({ kind, recipient, day, itemId })))
    .onConflictDoNothing()
    .returning({ itemId: reminderDeliveries.itemId });
  return rows.map((r) => r.itemId);
}

export async function attachReminderEmail(tx: DbOrTx, { kind, recipient, day, itemIds, emailId }: { kind: string; recipient: string; day: string; itemIds: string[]; emailId: string }) {
  await tx
    .update(reminderDeliveries)
    .set({ emailId })
    .where(and(eq(reminderDeliveries.kind, kind), eq(reminderDeliveries.recipient, recipient), eq(reminderDeliveries.day, day), inArray(reminderDeliveries.itemId, itemIds)));
}

export async function purgeReminderDeliveries(db: DbOrTx, beforeDay: string): Promise<void> {
  await db.delete(reminderDeliveries).where(lt(reminderDeliveries.day, beforeDay));
}
