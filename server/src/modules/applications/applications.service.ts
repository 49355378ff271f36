import { and, count, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { DEFAULT_LOT_DESCRIPTION } from '@maillon/common/constants';
import { APPLICATION_PILL_STATUSES, APPLICATION_PILLS, type ApplicationPill, type ApplicationStatus } from '@maillon/common/enums';
import { centsToEuros } from '@maillon/common/format';
import type { Application, ApplicationPillCounts, TechnicianApplication, TreatedDevice } from '@maillon/common/schemas/applications';
import type { Db, Tx } from '../../db/client';
import { applications, missionBatches, missions, technicianMissionData, technicians } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { pageTotal, windowTotal } from '../../lib/pagination';
import { getRecruitedTechnicianId } from '../lifecycle/lifecycle.service';
import { sortedModels } from '../mission-batches/mission-batches.service';
import { preparedQuery } from '../../db/prepared-queries';

type ApplicationRow = typeof applications.$inferSelect;

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

function toApplication(row: Pick<ApplicationRow, 'id' | 'batchId' | 'missionId' | 'technicianId' | 'status' | 'appliedAt' | 'adminComment'>): Application {
  return {
    id: row.id,
    batchId: row.batchId,
    missionId: row.missionId,
    technicianId: row.technicianId,
    status: row.status as ApplicationStatus,
    appliedAt: row.appliedAt?.toISOString() ?? null,
    adminComment: row.adminComment,
  };
}

/** decisions.md §4: only an active technician who has viewed every current training module may apply. */
async function assertTechnicianMayApply(tx: Tx, technicianId: string): Promise<void> {
  const [technician] = await tx.select({ status: technicians.status }).from(technicians).where(eq(technicians.id, technicianId)).limit(1);
  if (!technician) throw new AppError('NOT_FOUND', 'Technicien introuvable');
  if (technician.status === 'pending') throw new AppError('FORBIDDEN', MESSAGES.accountPending);
  if (technician.status !== 'active') throw new AppError('FORBIDDEN', MESSAGES.accountInactive);
  const unread = await tx.execute<{ n: number }>(sql`
    select count(*)::int as n from learning_resources lr
    where not exists (select 1 from resource_views rv where rv.resource_id = lr.id and rv.technician_id = ${technicianId})`);
  if (Number(unread.rows[0]?.n ?? 0) > 0) throw new AppError('FORBIDDEN', MESSAGES.trainingIncomplete);
}

/**
 * Locks the lot row (applications to one lot are serialised) and checks it is open: visible, not the system lot
 * (otherwise 404: technicians never see them), not completed, no technician recruited yet.
 */
async function lockOpenLot(tx: Tx, batchId: string): Promise<void> {
  await tx.execute(sql`select id from mission_batches where id = ${batchId} for update`);
  const [lot] = await tx
    .select({ visibility: missionBatches.visibility, status: missionBatches.status, isSystem: missionBatches.isSystem })
    .from(missionBatches)
    .where(eq(missionBatches.id, batchId))
    .limit(1);
  if (!lot || lot.visibility !== 'visible' || lot.isSystem) throw new AppError('NOT_FOUND', MESSAGES.lotNotFound);
  if (lot.status === 'completed') throw new AppError('INVALID_TRANSITION', MESSAGES.lotCompleted);
}

/** POST /api/applications/batch: one application per technician and lot, status "En attente". */
export async function applyToBatch(db: Db, { batchId, technicianId }: { batchId: string; technicianId: string }): Promise<Application> {
  return db.transaction(async (tx) => {
    await assertTechnicianMayApply(tx, technicianId);
    await lockOpenLot(tx, batchId);
    const [existing] = await tx
      .select({ id: applications.id })
      .from(applications)
      .where(and(eq(applications.batchId, batchId), eq(applications.technicianId, technicianId)))
      .limit(1);
    if (existing) throw new AppError('ALREADY_EXISTS', MESSAGES.alreadyApplied);
    if (await getRecruitedTechnicianId(tx, batchId)) throw new AppError('ALREADY_ASSIGNED', MESSAGES.alreadyAssigned);
    // The unique (technician, lot) constraint is the last guard if two requests slip past the checks.
    const [created] = await tx
      .insert(applications)
      .values({ batchId, technicianId, status: 'En attente' })
      .onConflictDoNothing()
      .returning();
    if (!created) throw new AppError('ALREADY_EXISTS', MESSAGES.alreadyApplied);
    return toApplication(created);
  });
}

/** POST /api/applications: single-mission variant, same rules, applied to the mission's lot. */
export async function applyToMission(
  db: Db,
  { missionId, technicianId, status }: { missionId: string; technicianId: string; status: 'pending' | 'En attente' },
): Promise<Application> {
  return db.transaction(async (tx) => {
    await assertTechnicianMayApply(tx, technicianId);
    const [mission] = await tx.select({ batchId: missions.batchId, status: missions.status }).from(missions).where(eq(missions.id, missionId)).limit(1);
    if (!mission?.batchId) throw new AppError('NOT_FOUND', MESSAGES.missionNotFound);
    await lockOpenLot(tx, mission.batchId);
    if (mission.status === 'completed' || mission.status === 'cancelled') throw new AppError('INVALID_TRANSITION', MESSAGES.lotCompleted);
    const [existing] = await tx
      .select({ id: applications.id })
      .from(applications)
      .where(and(eq(applications.missionId, missionId), eq(applications.technicianId, technicianId)))
      .limit(1);
    if (existing) throw new AppError('ALREADY_EXISTS', MESSAGES.alreadyAppliedMission);
    if (await getRecruitedTechnicianId(tx, mission.batchId)) throw new AppError('ALREADY_ASSIGNED', MESSAGES.alreadyAssigned);
    const [created] = await tx.insert(applications).values({ missionId, technicianId, status }).onConflictDoNothing().returning();
    if (!created) throw new AppError('ALREADY_EXISTS', MESSAGES.alreadyAppliedMission);
    return toApplication(created);
  });
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
 * Applications with their lot summary, newest first, one page. An application whose lot is gone is skipped and
 * logged (spec §2). Terminé ones carry the final revenue and the lot's devices.
 */
export async function listApplications(
  db: Db,
  filter: ApplicationsFilter,
  log: Pick<FastifyBaseLogger, 'warn'>,
): Promise<{ items: TechnicianApplication[]; total: number }> {
  const shape = `applications:${filter.technicianId ? 't' : ''}${filter.batchId ? 'b' : ''}${filter.status ? 's' : ''}`;
  const page = preparedQuery(db, shape, () => {
    const conditions: SQL[] = [];
    if (filter.technicianId) conditions.push(eq(applications.technicianId, sql.placeholder('technicianId')));
    if (filter.batchId) conditions.push(sql`coalesce(applications.batch_id, missions.batch_id) = ${sql.placeholder('batchId')}`);
    if (filter.status) conditions.push(sql`${applications.status} = any(${sql.placeholder('statuses')}::text[])`);
    // The lot's figures are those it keeps (docs/decisions/030), read with the page.
    return db
      .select({
        total: windowTotal(),
        lotDevices: missionBatches.missionCount,
        models: missionBatches.missionModels,
        candidates: missionBatches.applicationCount,
        id: applications.id,
        batchId: applications.batchId,
        missionId: applications.missionId,
        technicianId: applications.technicianId,
        status: applications.status,
        appliedAt: applications.appliedAt,
        adminComment: applications.adminComment,
        lot: {
          id: missionBatches.id,
          title: missionBatches.title,
          description: missionBatches.description,
          priceCents: missionBatches.priceCents,
          departments: missionBatches.departments,
          tags: missionBatches.tags,
          deadline: missionBatches.deadline,
          status: missionBatches.status,
          defibrillatorsSum: missionBatches.defibrillatorsSum,
          defibrillatorsDone: missionBatches.defibrillatorsDone,
          amountPerDefibCents: missionBatches.amountPerDefibCents,
        },
      })
      .from(applications)
      .leftJoin(missions, eq(missions.id, applications.missionId))
      .leftJoin(missionBatches, lotJoin)
      .where(conditions.length > 0 ? and(...conditions) : undefined)
      .orderBy(desc(applications.appliedAt), desc(applications.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
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
    if (row.lot?.id) return true;
    log.warn({ applicationId: row.id }, 'candidature ignorée : lot introuvable');
    return false;
  });
  const finished = withLot.filter((r) => r.status === 'Terminé');
  const devices = await getTreatedDevices(db, finished.map((r) => ({ batchId: r.lot!.id, technicianId: r.technicianId })));

  const items = withLot.map((row): TechnicianApplication => {
    const lot = row.lot!;
    const isFinished = row.status === 'Terminé';
    return {
      ...toApplication(row),
      lot: {
        id: lot.id,
        title: lot.title,
        description: lot.description?.trim() ? lot.description : DEFAULT_LOT_DESCRIPTION,
        price: centsToEuros(lot.priceCents),
        departments: lot.departments,
        tags: lot.tags,
        deadline: lot.deadline?.toISOString() ?? null,
        status: lot.status,
        // A finished lot keeps its figures frozen (undone devices left for the system lot).
        defibrillatorCount: lot.status === 'completed' ? lot.defibrillatorsSum : (row.lotDevices ?? 0),
        defibrillatorsDone: lot.defibrillatorsDone,
        amountPerDefib: centsToEuros(lot.amountPerDefibCents),
        candidateCount: row.candidates ?? 0,
        models: sortedModels(row.models),
      },
      finalRevenue: isFinished ? centsToEuros(lot.amountPerDefibCents * lot.defibrillatorsDone) : null,
      devices: isFinished ? (devices.get(`${lot.id}:${row.technicianId}`) ?? []) : null,
    };
  });
  const total = await pageTotal(rows, filter.offset, async () => {
    const conditions: SQL[] = [];
    if (filter.technicianId) conditions.push(eq(applications.technicianId, filter.technicianId));
    if (filter.batchId) conditions.push(sql`coalesce(applications.batch_id, missions.batch_id) = ${filter.batchId}`);
    if (filter.status) conditions.push(inArray(applications.status, statusesFor(filter.status)));
    const where = conditions.length > 0 ? and(...conditions) : undefined;
    return Number((await db.select({ n: count() }).from(applications).leftJoin(missions, eq(missions.id, applications.missionId)).where(where))[0]?.n ?? 0);
  });
  return { items, total };
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
  const rows = await db
    .select({ status: applications.status, n: count() })
    .from(applications)
    .where(eq(applications.technicianId, technicianId))
    .groupBy(applications.status);
  const counts: ApplicationPillCounts = { Recruté: 0, 'En attente': 0, Refusé: 0, Terminé: 0 };
  for (const pill of APPLICATION_PILLS) {
    const statuses: readonly string[] = APPLICATION_PILL_STATUSES[pill];
    counts[pill] = rows.filter((r) => statuses.includes(r.status)).reduce((sum, r) => sum + Number(r.n), 0);
  }
  return counts;
}
