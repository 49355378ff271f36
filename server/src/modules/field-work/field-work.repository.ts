import { and, asc, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { RECRUITED_APPLICATION_STATUSES } from '@maillon/common/enums';
import { jsonRowSql, jsonRowText, likePattern, literalLimit, pageShape, windowTotal } from '../../lib/pagination';
import type { DbOrTx } from '../../db/client';
import { preparedQuery, preparedSql } from '../../db/prepared-queries';
import { applications, comments, missionBatches, missions, technicianMissionData, technicians } from '../../db/schema';
import { cancellationBlockedSql } from '../lifecycle/lifecycle.service';

/** Drizzle queries of the field-work module, explicit columns only. */

/** An application with its lot, as the Recruté view shows them. */
const applicationWithLotColumns = {
  id: applications.id,
  status: applications.status,
  appliedAt: applications.appliedAt,
  adminComment: applications.adminComment,
  technicianId: applications.technicianId,
  batchId: applications.batchId,
  lot: {
    id: missionBatches.id,
    title: missionBatches.title,
    description: missionBatches.description,
    priceCents: missionBatches.priceCents,
    deadline: missionBatches.deadline,
    tags: missionBatches.tags,
    departments: missionBatches.departments,
    status: missionBatches.status,
    defibrillatorsSum: missionBatches.defibrillatorsSum,
    defibrillatorsDone: missionBatches.defibrillatorsDone,
    amountPerDefibCents: missionBatches.amountPerDefibCents,
  },
};

export async function findApplicationWithLot(db: DbOrTx, applicationId: string) {
  const [row] = await db
    .select(applicationWithLotColumns)
    .from(applications)
    .leftJoin(missionBatches, eq(missionBatches.id, applications.batchId))
    .where(eq(applications.id, applicationId))
    .limit(1);
  return row ?? null;
}

/** A message on a lot between the admin and its technician, as the work view's statement writes it (JSON). */
export interface LotCommentJson {
  id: string;
  authorRole: string;
  content: string;
  /** ISO 8601, UTC (maillon_json_time). */
  createdAt: string;
}

/**
 * A lot's devices in the technician's route order (unsorted ones after, oldest first), for a device `device` and its
 * progress `progress` (table names or aliases): the screen's JSON and the lists of devices order them the same way.
 */
const routeOrderText = (device: string, progress: string) =>
  `${progress}.route_position asc nulls last, ${device}.created_at asc, ${device}.serial_number asc, ${device}.id asc`;

/** A visit's slot as the answers write it (slotOf): its day, and its window's hours only when it has a window. */
const slotJsonText = (prefix: 'a.invited' | 'a.proposed') =>
  jsonRowText({
    date: `${prefix}_date`,
    window: `${prefix}_window`,
    startTime: `case when ${prefix}_window is not null then ${prefix}_start_time end`,
    endTime: `case when ${prefix}_window is not null then ${prefix}_end_time end`,
  });

/**
 * A device of the field-work screen as JSON (WorkMission), written by PostgreSQL as the service's toWorkMission,
 * toProgress and the appointments' toAppointmentDto write it in Node for the technician's list of devices: `m` the
 * device, `d` this technician's progress, `a` its appointment and `p.technician_id` the technician (decision 068).
 */
const workMissionJsonText = jsonRowText({
  id: 'm.id',
  title: 'm.title',
  defibrillatorModel: 'm.defibrillator_model',
  serialNumber: 'm.serial_number',
  clientName: 'm.client_name',
  telSite: 'm.tel_site',
  hasEmailSite: 'coalesce(length(trim(m.email_site)) > 0, false)',
  observations: 'm.observations',
  location: 'm.location',
  postalCode: 'm.postal_code',
  city: 'm.city',
  department: 'm.department',
  latitude: 'm.latitude',
  longitude: 'm.longitude',
  completionLink: 'm.completion_link',
  progress: jsonRowText({
    missionId: 'm.id',
    technicianId: 'p.technician_id',
    plannedVisitDate: 'maillon_json_time(d.planned_visit_date)',
    visitWindow: 'case when d.planned_visit_date is not null then d.visit_window end',
    visitStartTime: 'case when d.planned_visit_date is not null and d.visit_window is not null then d.visit_start_time end',
    visitEndTime: 'case when d.planned_visit_date is not null and d.visit_window is not null then d.visit_end_time end',
    isCompleted: 'coalesce(d.is_completed, false)',
    technicianComments: 'd.technician_comments',
    adminComments: 'd.admin_comments',
    routePosition: 'd.route_position',
    updatedAt: 'maillon_json_time(d.updated_at)',
  }),
  // Null until the site is invited or answers, as toAppointmentDto.
  appointment: `case when a.invited_at is null and a.response is null then null else ${jsonRowText({
    invitedAt: 'maillon_json_time(a.invited_at)',
    invitedSlot: `case when a.invited_at is not null and a.invited_date is not null then ${slotJsonText('a.invited')} end`,
    response: 'a.response',
    respondedAt: 'maillon_json_time(a.responded_at)',
    proposal: `case when a.proposed_date is not null then ${jsonRowText({ slot: slotJsonText('a.proposed'), message: 'a.proposed_message' })} end`,
    decision: 'a.decision',
    decidedAt: 'maillon_json_time(a.decided_at)',
  })} end`,
});

/**
 * The lot's devices for the field-work screen, with this technician's progress and each device's appointment (the
 * site's side of the visit, visit_appointments_visit_unique), as a lateral join of the application's row: the devices as
 * the answer's JSON text in the technician's route order, their count, how many are done and their models (each once,
 * unsorted: the service sorts them in French). Node sends the devices as they are instead of mapping and checking some
 * forty fields a device (decision 068).
 */
const lotWorkSql = sql`(
    select coalesce(json_agg(${sql.raw(workMissionJsonText)} order by ${sql.raw(routeOrderText('m', 'd'))}), '[]')::text as missions,
      count(*)::int as count,
      (count(*) filter (where d.is_completed))::int as done,
      coalesce(array_agg(distinct m.defibrillator_model) filter (where m.defibrillator_model <> ''), '{}') as models
    from (select ${applications.technicianId} as technician_id, ${applications.batchId} as batch_id) p
    join missions m on m.batch_id = p.batch_id
    left join technician_mission_data d on d.mission_id = m.id and d.technician_id = p.technician_id
    left join visit_appointments a on a.mission_id = m.id and a.technician_id = p.technician_id
  ) work`;

/**
 * The field-work screen in one statement: the application and its lot, whether its recruit may still cancel, the lot's
 * messages between the admin and this technician (newest first, 200 at most), and the lot's devices (lotWorkSql). Six
 * statements before decision 059, two before decision 068.
 */
export async function findApplicationWork(db: DbOrTx, applicationId: string) {
  const query = preparedQuery(db, 'application-work', () =>
    db
      .select({
        ...applicationWithLotColumns,
        cancellationBlocked: cancellationBlockedSql(applications.batchId, applications.technicianId),
        comments: sql<LotCommentJson[]>`(
          select coalesce(json_agg(${jsonRowSql({ id: 'c.id', authorRole: 'c.author_role', content: 'c.content', createdAt: 'maillon_json_time(c.created_at)' })}
            order by c.created_at desc, c.id desc), '[]'::json)
          from (
            select id, author_role, content, created_at from comments
            where batch_id = ${applications.batchId} and technician_id = ${applications.technicianId}
            order by created_at desc, id desc limit 200
          ) c)`,
        work: {
          missions: sql<string>`work.missions`,
          count: sql<number>`work.count`,
          done: sql<number>`work.done`,
          models: sql<string[]>`work.models`,
        },
      })
      .from(applications)
      .leftJoin(missionBatches, eq(missionBatches.id, applications.batchId))
      .leftJoinLateral(lotWorkSql, sql`true`)
      .where(eq(applications.id, sql.placeholder('applicationId')))
      .limit(1)
      .prepare('maillon_application_work'),
  );
  const [row] = await query.execute({ applicationId });
  return row ?? null;
}

export async function findApplication(db: DbOrTx, applicationId: string) {
  const [row] = await db
    .select({ id: applications.id, status: applications.status, technicianId: applications.technicianId, batchId: applications.batchId })
    .from(applications)
    .where(eq(applications.id, applicationId))
    .limit(1);
  return row ?? null;
}

/** The columns of a device in the Recruté view, with this technician's progress (technician_mission_data joined). */
const lotMissionColumns = {
  id: missions.id,
  title: missions.title,
  defibrillatorModel: missions.defibrillatorModel,
  serialNumber: missions.serialNumber,
  clientName: missions.clientName,
  telSite: missions.telSite,
  hasEmailSite: sql<boolean>`coalesce(length(trim(missions.email_site)) > 0, false)`,
  observations: missions.observations,
  location: missions.location,
  postalCode: missions.postalCode,
  city: missions.city,
  department: missions.department,
  latitude: missions.latitude,
  longitude: missions.longitude,
  completionLink: missions.completionLink,
  plannedVisitDate: technicianMissionData.plannedVisitDate,
  visitWindow: technicianMissionData.visitWindow,
  visitStartTime: technicianMissionData.visitStartTime,
  visitEndTime: technicianMissionData.visitEndTime,
  isCompleted: technicianMissionData.isCompleted,
  technicianComments: technicianMissionData.technicianComments,
  adminComments: technicianMissionData.adminComments,
  routePosition: technicianMissionData.routePosition,
  progressUpdatedAt: technicianMissionData.updatedAt,
};

/** The statements of a lot's devices, ordered by routeOrderText with their tables' own names. */
const routeOrder = sql.raw(routeOrderText('missions', 'technician_mission_data'));

/** The lot's devices with this technician's progress, in the technician's route order. One query. */
export async function listLotMissionsWithProgress(db: DbOrTx, { batchId, technicianId }: { batchId: string; technicianId: string }) {
  const query = preparedQuery(db, 'lot-missions-with-progress', () =>
    db
      .select(lotMissionColumns)
      .from(missions)
      .leftJoin(
        technicianMissionData,
        and(eq(technicianMissionData.missionId, missions.id), eq(technicianMissionData.technicianId, sql.placeholder('technicianId'))),
      )
      .where(eq(missions.batchId, sql.placeholder('batchId')))
      .orderBy(routeOrder)
      .prepare('maillon_lot_missions_with_progress'),
  );
  return query.execute({ batchId, technicianId });
}
export type LotMissionRow = Awaited<ReturnType<typeof listLotMissionsWithProgress>>[number];

export interface RecruitedMissionFilters {
  technicianId: string;
  batchId?: string | undefined;
  status?: string | undefined;
  search?: string | undefined;
  limit: number;
  offset: number;
}

/**
 * The devices of the lots this technician is recruited on (application Recruté), lot by lot (title, then id) and in
 * its route order within a lot, with the page's total on each row. Starts from the technician's applications
 * (applications_technician_idx), then each lot's devices (missions_batch_idx).
 */
export async function listRecruitedMissions(db: DbOrTx, filters: RecruitedMissionFilters) {
  // Built once per combination of filters and page size (db/prepared-queries.ts): the values are placeholders, the
  // limit a literal and the offset there only past the first page, so PostgreSQL keeps a generic plan (decision 031).
  const paged = filters.offset > 0;
  const shape = `recruited-missions:${filters.batchId ? 'b' : ''}${filters.status ? 's' : ''}${filters.search ? 'q' : ''}:${pageShape(filters)}`;
  const query = preparedQuery(db, shape, () =>
    db
      .select({ ...lotMissionColumns, batchId: missionBatches.id, batchTitle: missionBatches.title, applicationId: applications.id, total: windowTotal() })
      .from(applications)
      .innerJoin(missionBatches, eq(missionBatches.id, applications.batchId))
      .innerJoin(missions, eq(missions.batchId, applications.batchId))
      .leftJoin(
        technicianMissionData,
        and(eq(technicianMissionData.missionId, missions.id), eq(technicianMissionData.technicianId, sql.placeholder('technicianId'))),
      )
      .where(
        recruitedMissionsWhere({
          technicianId: sql.placeholder('technicianId'),
          batchId: filters.batchId ? sql.placeholder('batchId') : undefined,
          status: filters.status ? sql.placeholder('status') : undefined,
          search: filters.search ? sql.placeholder('pattern') : undefined,
        }),
      )
      .orderBy(asc(missionBatches.title), asc(missionBatches.id), routeOrder)
      .limit(literalLimit(filters.limit))
      .offset(paged ? sql.placeholder('offset') : 0)
      .prepare(`maillon_${shape.replace(/[^a-z0-9]/g, '_')}`),
  );
  return query.execute({
    technicianId: filters.technicianId,
    batchId: filters.batchId,
    status: filters.status,
    pattern: filters.search ? likePattern(filters.search) : undefined,
    offset: filters.offset,
  });
}

/** The size of that list (for a page past its end, which carries no total). */
export async function countRecruitedMissions(db: DbOrTx, filters: Omit<RecruitedMissionFilters, 'limit' | 'offset'>): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(applications)
    .innerJoin(missions, eq(missions.batchId, applications.batchId))
    .where(
      recruitedMissionsWhere({
        technicianId: filters.technicianId,
        batchId: filters.batchId,
        status: filters.status,
        search: filters.search ? likePattern(filters.search) : undefined,
      }),
    );
  return Number(row?.n ?? 0);
}

/** The conditions of the technician's recruited devices: values, or placeholders of a prepared query; `search` a LIKE pattern. */
function recruitedMissionsWhere(filters: { technicianId: unknown; batchId?: unknown; status?: unknown; search?: unknown }): SQL | undefined {
  // The status as a literal: a parameter there made the generic plan look dearer than planning each call (decision 031).
  const where: SQL[] = [sql`${applications.technicianId} = ${filters.technicianId}`, sql`${applications.status} = 'Recruté'`];
  if (filters.batchId !== undefined) where.push(sql`${applications.batchId} = ${filters.batchId}`);
  if (filters.status !== undefined) where.push(sql`${missions.status} = ${filters.status}`);
  if (filters.search !== undefined) {
    const text = [missions.title, missions.serialNumber, missions.clientName, missions.city, missions.location].map((column) => sql`${column} ilike ${filters.search}`);
    where.push(or(...text)!);
  }
  return and(...where);
}

/** The comments a technician wrote on a lot (« Commentaire pour l'admin »), not the admin's messages on it. */
const technicianCommentsOnLot = ({ batchId, technicianId }: { batchId: string; technicianId: string }) =>
  and(eq(comments.batchId, batchId), eq(comments.technicianId, technicianId), eq(comments.authorRole, 'technician'));

export async function findTechnicianLotComment(db: DbOrTx, { batchId, technicianId }: { batchId: string; technicianId: string }) {
  const [row] = await db
    .select({ id: comments.id, content: comments.content, createdAt: comments.createdAt })
    .from(comments)
    .where(technicianCommentsOnLot({ batchId, technicianId }))
    .orderBy(desc(comments.createdAt))
    .limit(1);
  return row ?? null;
}

/** A device and, if any, this technician's recruitment (Recruté or Terminé) on the device's lot. */
export async function findMissionRecruitment(db: DbOrTx, { missionId, technicianId }: { missionId: string; technicianId: string }) {
  const [row] = await db
    .select({
      missionId: missions.id,
      batchId: missions.batchId,
      title: missions.title,
      serialNumber: missions.serialNumber,
      defibrillatorModel: missions.defibrillatorModel,
      visitType: missions.visitType,
      location: missions.location,
      emailSite: missions.emailSite,
      applicationId: applications.id,
      applicationStatus: applications.status,
      lotStatus: missionBatches.status,
    })
    .from(missions)
    .leftJoin(missionBatches, eq(missionBatches.id, missions.batchId))
    .leftJoin(
      applications,
      and(
        eq(applications.batchId, missions.batchId),
        eq(applications.technicianId, technicianId),
        inArray(applications.status, [...RECRUITED_APPLICATION_STATUSES]),
      ),
    )
    .where(eq(missions.id, missionId))
    .limit(1);
  return row ?? null;
}

export const progressColumns = {
  missionId: technicianMissionData.missionId,
  technicianId: technicianMissionData.technicianId,
  plannedVisitDate: technicianMissionData.plannedVisitDate,
  visitWindow: technicianMissionData.visitWindow,
  visitStartTime: technicianMissionData.visitStartTime,
  visitEndTime: technicianMissionData.visitEndTime,
  isCompleted: technicianMissionData.isCompleted,
  technicianComments: technicianMissionData.technicianComments,
  adminComments: technicianMissionData.adminComments,
  routePosition: technicianMissionData.routePosition,
  updatedAt: technicianMissionData.updatedAt,
};

export async function findProgress(db: DbOrTx, { missionId, technicianId }: { missionId: string; technicianId: string }) {
  const [row] = await db
    .select(progressColumns)
    .from(technicianMissionData)
    .where(and(eq(technicianMissionData.missionId, missionId), eq(technicianMissionData.technicianId, technicianId)))
    .limit(1);
  return row ?? null;
}
export type ProgressRow = NonNullable<Awaited<ReturnType<typeof findProgress>>>;

export async function listTechnicianProgress(db: DbOrTx, { technicianId, limit, offset }: { technicianId: string; limit: number; offset: number }) {
  const [rows, [total]] = await Promise.all([
    db
      .select(progressColumns)
      .from(technicianMissionData)
      .where(eq(technicianMissionData.technicianId, technicianId))
      .orderBy(desc(technicianMissionData.updatedAt), asc(technicianMissionData.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: sql<number>`count(*)::int` }).from(technicianMissionData).where(eq(technicianMissionData.technicianId, technicianId)),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

export async function findTechnicianContact(db: DbOrTx, technicianId: string) {
  const [row] = await db
    .select({
      id: technicians.id,
      firstName: technicians.firstName,
      lastName: technicians.lastName,
      phone: technicians.phone,
      address: technicians.address,
      postalCode: technicians.postalCode,
      city: technicians.city,
      latitude: technicians.latitude,
      longitude: technicians.longitude,
    })
    .from(technicians)
    .where(eq(technicians.id, technicianId))
    .limit(1);
  return row ?? null;
}

export async function isRecruitedOnBatch(db: DbOrTx, { batchId, technicianId }: { batchId: string; technicianId: string }): Promise<boolean> {
  const [row] = await db
    .select({ id: applications.id })
    .from(applications)
    .where(and(eq(applications.batchId, batchId), eq(applications.technicianId, technicianId), inArray(applications.status, [...RECRUITED_APPLICATION_STATUSES])))
    .limit(1);
  return Boolean(row);
}

export async function technicianExists(db: DbOrTx, technicianId: string): Promise<boolean> {
  const [row] = await db.select({ id: technicians.id }).from(technicians).where(eq(technicians.id, technicianId)).limit(1);
  return Boolean(row);
}

/** Row lock on a lot: progress writes on one lot are serialised so its figures stay exact. */
export async function lockBatchRow(tx: DbOrTx, batchId: string): Promise<void> {
  await tx.execute(sql`select id from mission_batches where id = ${batchId} for update`);
}

/** The fields of a device's progress that its recruit writes, as maillon_save_device_progress takes them (absent = kept). */
export interface DeviceProgressPatch {
  plannedVisitDate?: string | null;
  visitWindow?: string | null;
  visitStartTime?: string | null;
  visitEndTime?: string | null;
  isCompleted?: boolean;
  technicianComments?: string | null;
}

export type DeviceProgressOutcome = 'saved' | 'not-found' | 'finished' | 'window-without-date' | 'invited';

/** The function's row: the outcome, and the saved progress (its times as ISO text) when it is 'saved'. */
type SavedDeviceRow = {
  outcome: DeviceProgressOutcome;
  plannedVisitDate: string | null;
  visitWindow: string | null;
  visitStartTime: string | null;
  visitEndTime: string | null;
  isCompleted: boolean | null;
  technicianComments: string | null;
  adminComments: string | null;
  routePosition: number | null;
  updatedAt: string | null;
};

/**
 * A device's progress saved by its lot's recruit in one call (migration 0051, decision 070): the lot locked, the
 * recruitment checked, the progress written and, when Effectué / À faire changed, the lot's figures and open invoice.
 * Nothing is written unless the outcome is 'saved'; 'invited' (the slot changes while an invitation is out) unless
 * `invitedOk`, for the caller's transaction that updates the invitation too.
 */
export async function saveDeviceProgress(
  db: DbOrTx,
  { missionId, technicianId, patch, invitedOk }: { missionId: string; technicianId: string; patch: DeviceProgressPatch; invitedOk: boolean },
) {
  const statement = preparedSql<SavedDeviceRow>(
    db,
    'device-progress',
    () => sql`select * from maillon_save_device_progress(${sql.placeholder('missionId')}, ${sql.placeholder('technicianId')}, ${sql.placeholder('patch')}::jsonb, ${sql.placeholder('invitedOk')})`,
  );
  const [row] = (await statement.execute({ missionId, technicianId, patch: JSON.stringify(patch), invitedOk })).rows;
  const { outcome, plannedVisitDate, updatedAt, ...fields } = row!;
  if (outcome !== 'saved') return { outcome, progress: null };
  return {
    outcome,
    progress: { ...fields, plannedVisitDate: plannedVisitDate === null ? null : new Date(plannedVisitDate), updatedAt: new Date(updatedAt!) },
  };
}

/** Stores the technician's route order in one statement; the positions of the other devices are cleared. */
export async function saveRouteOrder(
  tx: DbOrTx,
  { technicianId, ordered, cleared }: { technicianId: string; ordered: string[]; cleared: string[] },
): Promise<void> {
  if (ordered.length > 0) {
    await tx
      .insert(technicianMissionData)
      .values(ordered.map((missionId, i) => ({ missionId, technicianId, routePosition: i + 1 })))
      .onConflictDoUpdate({
        target: [technicianMissionData.missionId, technicianMissionData.technicianId],
        set: { routePosition: sql`excluded.route_position`, updatedAt: new Date() },
      });
  }
  if (cleared.length > 0) {
    await tx
      .update(technicianMissionData)
      .set({ routePosition: null })
      .where(and(eq(technicianMissionData.technicianId, technicianId), inArray(technicianMissionData.missionId, cleared)));
  }
}

/**
 * The technician's comment on a lot saved in one call (migration 0052, decision 070): the application locked, its latest
 * technician comment on the lot rewritten or one written; an empty text removes them (answered with no time).
 */
export async function saveTechnicianLotComment(
  db: DbOrTx,
  { applicationId, batchId, technicianId, content }: { applicationId: string; batchId: string; technicianId: string; content: string },
): Promise<{ content: string; updatedAt: string | null }> {
  const statement = preparedSql<{ savedContent: string; savedAt: string | null }>(
    db,
    'lot-comment-save',
    () =>
      sql`select * from maillon_save_lot_comment(${sql.placeholder('applicationId')}, ${sql.placeholder('batchId')}, ${sql.placeholder('technicianId')}, ${sql.placeholder('content')})`,
  );
  const [row] = (await statement.execute({ applicationId, batchId, technicianId, content })).rows;
  return { content: row!.savedContent, updatedAt: row!.savedAt };
}
