import { and, count, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { APPLICATION_PILL_STATUSES, APPLICATION_PILLS, type ApplicationPill, type ApplicationStatus } from '@maillon/common/enums';
import type { Application, ApplicationPillCounts, TreatedDevice } from '@maillon/common/schemas/applications';
import type { Db } from '../../db/client';
import { applications, missionBatches, missions, technicianMissionData } from '../../db/schema';
import { AppError, type AppErrorCode } from '../../lib/app-error';
import { eurosSql, jsonRowSql, literalLimit, PART_SEPARATOR, pageShape, pageTotal, windowTotal } from '../../lib/pagination';
import { allRowsCountSql, statusAnyCountSql, statusCountSql } from '../../lib/row-counts';
import { sortedModels } from '../mission-batches/mission-batches.service';
import { preparedQuery, preparedSql } from '../../db/prepared-queries';

export const MESSAGES = {
  accountPending: 'Compte en attente de validation : vous pourrez postuler dès que votre compte sera validé',
  accountInactive: 'Compte désactivé',
  trainingIncomplete: 'Formation incomplète : consultez toutes les ressources de formation pour postuler',
  lotNotFound: 'Lot introuvable',
  missionNotFound: 'Mission introuvable',
  lotCompleted: 'Ce lot est terminé',
  alreadyAssigned: 'Déjà assigné',
  alreadyApplied: 'Vous avez déjà postulé à ce lot',
  alreadyAppliedMission: 'Vous avez déjà postulé à cette mission',
} as const;

/** Each refusal of maillon_apply, as the service answers it (an application to one mission: alreadyAppliedMission). */
const APPLY_REFUSALS = {
  'technician-not-found': ['NOT_FOUND', 'Technicien introuvable'],
  'account-pending': ['FORBIDDEN', MESSAGES.accountPending],
  'account-inactive': ['FORBIDDEN', MESSAGES.accountInactive],
  'training-incomplete': ['FORBIDDEN', MESSAGES.trainingIncomplete],
  'mission-not-found': ['NOT_FOUND', MESSAGES.missionNotFound],
  'lot-not-found': ['NOT_FOUND', MESSAGES.lotNotFound],
  'lot-completed': ['INVALID_TRANSITION', MESSAGES.lotCompleted],
  'already-applied': ['ALREADY_EXISTS', MESSAGES.alreadyApplied],
  'already-assigned': ['ALREADY_ASSIGNED', MESSAGES.alreadyAssigned],
} satisfies Record<string, [AppErrorCode, string]>;

/** What maillon_apply answers: the row written, or its first refusal. */
type ApplyOutcome = 'created' | keyof typeof APPLY_REFUSALS;

/**
 * An application saved in one call (maillon_apply, migration 0053, decision 070): the lot locked, then the checks of
 * decisions.md §4 read after the lock (an active technician who has viewed every current training module, an open
 * lot, no earlier application, no recruit), and the row written only if all pass. The first refusal becomes its
 * French message here.
 */
async function apply(
  db: Db,
  target: { technicianId: string; status: string } & ({ batchId: string; missionId?: undefined } | { missionId: string; batchId?: undefined }),
): Promise<Application> {
  const result = await preparedSql<{ outcome: ApplyOutcome; id: string | null; batchId: string | null; missionId: string | null; appliedAt: string | null }>(
    db,
    'application-apply',
    () =>
      sql`select * from maillon_apply(${sql.placeholder('technicianId')}, ${sql.placeholder('batchId')}::uuid, ${sql.placeholder('missionId')}::uuid, ${sql.placeholder('status')})`,
  ).execute({ technicianId: target.technicianId, batchId: target.batchId ?? null, missionId: target.missionId ?? null, status: target.status });
  const row = result.rows[0]!;
  if (row.outcome !== 'created') {
    const [code, message] = APPLY_REFUSALS[row.outcome];
    throw new AppError(code, row.outcome === 'already-applied' && target.missionId !== undefined ? MESSAGES.alreadyAppliedMission : message);
  }
  return {
    id: row.id!,
    batchId: row.batchId,
    missionId: row.missionId,
    technicianId: target.technicianId,
    status: target.status as ApplicationStatus,
    appliedAt: row.appliedAt,
    adminComment: null,
  };
}

/** POST /api/applications/batch: one application per technician and lot, status "En attente". */
export async function applyToBatch(db: Db, { batchId, technicianId }: { batchId: string; technicianId: string }): Promise<Application> {
  return apply(db, { batchId, technicianId, status: 'En attente' });
}

/** POST /api/applications: single-mission variant, same rules, applied to the mission's lot. */
export async function applyToMission(
  db: Db,
  { missionId, technicianId, status }: { missionId: string; technicianId: string; status: 'pending' | 'En attente' },
): Promise<Application> {
  return apply(db, { missionId, technicianId, status });
}

/** Statuses behind a filter value: a pill groups several (Annulé under Refusé), any other value is one status. */
export function statusesFor(filter: string): string[] {
  if ((APPLICATION_PILLS as readonly string[]).includes(filter)) return [...APPLICATION_PILL_STATUSES[filter as ApplicationPill]];
  return [filter];
}

export interface ApplicationsFilter {
  technicianId?: string | undefined;
  batchId?: string | undefined;
  status?: string | undefined;
  limit: number;
  offset: number;
}

// The lot of an application: its own batch, or the batch of its mission (single-mission applications).
const lotJoin = sql`mission_batches.id = coalesce(applications.batch_id, missions.batch_id)`;

/**
 * The applications of a lot: to the lot itself, or (an application to one mission, spec 01) to one of its missions —
 * `coalesce(applications.batch_id, missions.batch_id) = lot` said the same but no index could find it (50 ms at full
 * scale for the admin's ?batchId=, 0.2 ms this way; decision 039).
 */
const ofLot = (batchId: unknown) =>
  sql`(applications.batch_id = ${batchId} or (applications.batch_id is null and applications.mission_id in (select lot_missions.id from missions lot_missions where lot_missions.batch_id = ${batchId})))`;

/**
 * What the list shows of an application `applications` and its lot `mission_batches`, as JSON PostgreSQL writes
 * (docs/decisions/044) from rows of named columns (jsonRowSql, decision 049), in three parts joined by chr(31): the
 * application without its lot and devices, the lot without its models, and the models (sorted in French by the
 * server, as the lots' lists do: decision 033). A finished lot keeps its figures frozen (undone devices left for the
 * system lot); a Terminé application carries its final revenue.
 */
const applicationPartsSql = sql<string>`to_json(${jsonRowSql({
  id: 'applications.id',
  batchId: 'applications.batch_id',
  missionId: 'applications.mission_id',
  technicianId: 'applications.technician_id',
  status: 'applications.status',
  appliedAt: 'maillon_json_time(applications.applied_at)',
  adminComment: 'applications.admin_comment',
  finalRevenue: `case when applications.status = 'Terminé' then ${eurosSql('mission_batches.amount_per_defib_cents::numeric * mission_batches.defibrillators_done')} end`,
})})::text || chr(31) || to_json(${jsonRowSql({
  id: 'mission_batches.id',
  title: 'mission_batches.title',
  description: 'maillon_lot_description(mission_batches.description)',
  price: eurosSql('mission_batches.price_cents'),
  departments: 'mission_batches.departments',
  tags: 'mission_batches.tags',
  deadline: 'maillon_json_time(mission_batches.deadline)',
  status: 'mission_batches.status',
  defibrillatorCount: 'case when mission_batches.status = \'completed\' then mission_batches.defibrillators_sum else mission_batches.mission_count end',
  defibrillatorsDone: 'mission_batches.defibrillators_done',
  amountPerDefib: eurosSql('mission_batches.amount_per_defib_cents'),
  candidateCount: 'mission_batches.application_count',
})})::text || chr(31) || array_to_json(mission_batches.mission_models)::text`;

/** A page of applications as JSON text, the array the route sends as it is, and the total of the filter. */
export interface ApplicationsPage {
  json: string;
  total: number;
}

/**
 * Applications with their lot summary, newest first, one page, written by PostgreSQL (docs/decisions/044): Node only
 * sorts each lot's models and adds the devices of the Terminé ones. An application whose lot is gone is skipped and
 * logged (spec §2).
 */
export async function listApplications(db: Db, filter: ApplicationsFilter, log: Pick<FastifyBaseLogger, 'warn'>): Promise<ApplicationsPage> {
  // Every application, or those of some statuses (the admin's list): the total is kept by status (row_counts,
  // decision 040), so the page walks applications_applied_idx and stops at its rows instead of counting them all. Its
  // limit is in the text and its offset only past the first page: as parameters, PostgreSQL planned it on every call
  // (decision 067). A technician's or a lot's applications are few, and keep their generic plan with both parameters.
  const everyTechnician = !filter.technicianId && !filter.batchId;
  const shape = `applications:${filter.technicianId ? 't' : ''}${filter.batchId ? 'b' : ''}${filter.status ? 's' : ''}${everyTechnician ? `_${pageShape(filter)}` : ''}`;
  const page = preparedQuery(db, shape, () => {
    const conditions: SQL[] = [];
    if (filter.technicianId) conditions.push(eq(applications.technicianId, sql.placeholder('technicianId')));
    if (filter.batchId) conditions.push(ofLot(sql.placeholder('batchId')));
    if (filter.status) conditions.push(sql`${applications.status} = any(${sql.placeholder('statuses')}::text[])`);
    const total = everyTechnician
      ? filter.status
        ? statusAnyCountSql('applications', sql.placeholder('statuses'))
        : allRowsCountSql('applications')
      : windowTotal();
    // The lot's figures are those it keeps (docs/decisions/030), read with the page.
    return db
      .select({
        total,
        id: applications.id,
        technicianId: applications.technicianId,
        status: applications.status,
        lotId: missionBatches.id,
        parts: applicationPartsSql,
      })
      .from(applications)
      .leftJoin(missions, eq(missions.id, applications.missionId))
      .leftJoin(missionBatches, lotJoin)
      .where(conditions.length > 0 ? and(...conditions) : undefined)
      .orderBy(desc(applications.appliedAt), desc(applications.id))
      .limit(everyTechnician ? literalLimit(filter.limit) : sql.placeholder('limit'))
      .offset(everyTechnician && filter.offset === 0 ? 0 : sql.placeholder('offset'))
      .prepare(`maillon_${shape.replace(':', '_')}`);
  });
  const rows = await page.execute({
    technicianId: filter.technicianId,
    batchId: filter.batchId,
    statuses: filter.status ? statusesFor(filter.status) : undefined,
    limit: filter.limit,
    offset: filter.offset,
  });

  const withLot = rows.filter((row) => {
    if (row.lotId) return true;
    log.warn({ applicationId: row.id }, 'candidature ignorée : lot introuvable');
    return false;
  });
  const finished = withLot.filter((r) => r.status === 'Terminé');
  const devices = await getTreatedDevices(db, finished.map((r) => ({ batchId: r.lotId!, technicianId: r.technicianId })));
  const items = withLot.map((row) => {
    const [application, lot, models] = row.parts.split(PART_SEPARATOR) as [string, string, string];
    const treated = row.status === 'Terminé' ? JSON.stringify(devices.get(`${row.lotId}:${row.technicianId}`) ?? []) : 'null';
    const sorted = JSON.stringify(sortedModels(JSON.parse(models) as string[]));
    return `${application.slice(0, -1)},"devices":${treated},"lot":{"models":${sorted},${lot.slice(1)}}`;
  });

  const total = await pageTotal(rows, filter.offset, async () => {
    if (everyTechnician) {
      const kept = filter.status ? statusCountSql('applications', statusesFor(filter.status)) : allRowsCountSql('applications');
      return Number((await db.execute<{ n: number | string }>(sql`select ${kept} as n`)).rows[0]?.n ?? 0);
    }
    const conditions: SQL[] = [];
    if (filter.technicianId) conditions.push(eq(applications.technicianId, filter.technicianId));
    if (filter.batchId) conditions.push(ofLot(filter.batchId));
    if (filter.status) conditions.push(inArray(applications.status, statusesFor(filter.status)));
    const where = conditions.length > 0 ? and(...conditions) : undefined;
    return Number((await db.select({ n: count() }).from(applications).where(where))[0]?.n ?? 0);
  });
  return { json: `[${items.join(',')}]`, total };
}

/** Devices of finished lots with their state for the technician who did them ("Effectué" / "Non traité"). */
async function getTreatedDevices(db: Db, pairs: { batchId: string; technicianId: string }[]): Promise<Map<string, TreatedDevice[]>> {
  const result = new Map<string, TreatedDevice[]>();
  if (pairs.length === 0) return result;
  const batchIds = [...new Set(pairs.map((p) => p.batchId))];
  const technicianIds = [...new Set(pairs.map((p) => p.technicianId))];
  const rows = await db
    .select({
      id: missions.id,
      batchId: missions.batchId,
      originBatchId: missions.originBatchId,
      serialNumber: missions.serialNumber,
      clientName: missions.clientName,
      status: missions.status,
      technicianId: technicianMissionData.technicianId,
      isCompleted: technicianMissionData.isCompleted,
    })
    .from(missions)
    .leftJoin(technicianMissionData, and(eq(technicianMissionData.missionId, missions.id), sql`${technicianMissionData.technicianId} = any(${sql.param(technicianIds)}::uuid[])`))
    // Devices left undone moved to the system lot at the finish; originBatchId keeps them in their lot's history.
    // One array parameter each (= any), so the statement's text does not change with the number of lots.
    .where(or(sql`${missions.batchId} = any(${sql.param(batchIds)}::uuid[])`, sql`${missions.originBatchId} = any(${sql.param(batchIds)}::uuid[])`))
    .orderBy(missions.serialNumber, missions.id);
  for (const pair of pairs) {
    const key = `${pair.batchId}:${pair.technicianId}`;
    if (result.has(key)) continue;
    const byMission = new Map<string, TreatedDevice>();
    for (const row of rows) {
      if (row.batchId !== pair.batchId && row.originBatchId !== pair.batchId) continue;
      const doneByTechnician = row.technicianId === pair.technicianId && row.isCompleted === true;
      const current = byMission.get(row.id);
      const done = row.status === 'completed' || doneByTechnician || Boolean(current?.done);
      byMission.set(row.id, { id: row.id, serialNumber: row.serialNumber, clientName: row.clientName, done });
    }
    result.set(key, [...byMission.values()]);
  }
  return result;
}

/** How many of the technician's applications sit under each pill. */
export async function countApplicationsByPill(db: Db, { technicianId }: { technicianId: string }): Promise<ApplicationPillCounts> {
  // Built once (db/prepared-queries.ts): building it was about a tenth of this read's Node time.
  const query = preparedQuery(db, 'application-pill-counts', () =>
    db
      .select({ status: applications.status, n: count() })
      .from(applications)
      .where(eq(applications.technicianId, sql.placeholder('technicianId')))
      .groupBy(applications.status)
      .prepare('maillon_application_pill_counts'),
  );
  const rows = await query.execute({ technicianId });
  const counts: ApplicationPillCounts = { Recruté: 0, 'En attente': 0, Refusé: 0, Terminé: 0 };
  for (const pill of APPLICATION_PILLS) {
    const statuses: readonly string[] = APPLICATION_PILL_STATUSES[pill];
    counts[pill] = rows.filter((r) => statuses.includes(r.status)).reduce((sum, r) => sum + Number(r.n), 0);
  }
  return counts;
}
