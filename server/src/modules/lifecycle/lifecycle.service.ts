import { and, asc, eq, inArray, sql, type SQLWrapper } from 'drizzle-orm';
import { FORMATION_DONE, FORMATION_NOT_DONE, SYSTEM_LOT_TITLE } from '@maillon/common/constants';
import { RECRUITED_APPLICATION_STATUSES } from '@maillon/common/enums';
import type { DbOrTx } from '../../db/client';
import { applications, invoices, missionBatches, missions, technicianMissionData, technicians } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { refreshLotsGeometry } from '../../lib/positions';
import { preparedSql } from '../../db/prepared-queries';

/**
 * The lot / application / invoice lifecycle (decisions.md §4), shared by the technician, admin and money modules.
 * Every function takes the caller's transaction: the whole change commits or nothing does.
 */

export async function ensureSystemLot(tx: DbOrTx): Promise<string> {
  const [existing] = await tx.select({ id: missionBatches.id }).from(missionBatches).where(eq(missionBatches.isSystem, true)).limit(1);
  if (existing) return existing.id;
  await tx
    .insert(missionBatches)
    .values({ title: SYSTEM_LOT_TITLE, description: 'Missions annulées à réaffecter', isSystem: true, visibility: 'invisible' })
    .onConflictDoNothing();
  const [created] = await tx.select({ id: missionBatches.id }).from(missionBatches).where(eq(missionBatches.isSystem, true)).limit(1);
  return created!.id;
}

/** The recruited (or finished) technician of a lot, if any. */
export async function getRecruitedTechnicianId(tx: DbOrTx, batchId: string): Promise<string | null> {
  const [row] = await tx
    .select({ technicianId: applications.technicianId })
    .from(applications)
    .where(and(eq(applications.batchId, batchId), inArray(applications.status, [...RECRUITED_APPLICATION_STATUSES])))
    .limit(1);
  return row?.technicianId ?? null;
}

/**
 * The active lots whose technician is « Recruté » (parcels of parts are prepared for them, decision 040), joined with
 * that application: the lot's kept `has_recruit` (migration 0017), walked in title order on
 * mission_batches_recruited_title_idx. Shared by Expéditions' proposals and the parcel dialog's lot options.
 */
export const lotsWithRecruit = {
  recruitOfLot: and(eq(applications.batchId, missionBatches.id), eq(applications.status, 'Recruté'))!,
  // Written as the index's own predicate, values in the text: as parameters, a named statement's generic plan (which
  // PostgreSQL keeps after five calls) cannot prove the partial index applies, and sorted every active lot (58 ms).
  lotIsActiveWithRecruit: sql`${missionBatches.status} = 'active' and not ${missionBatches.isSystem} and ${missionBatches.hasRecruit}`,
  byTitle: [asc(missionBatches.title), asc(missionBatches.id)] as const,
};

/** Pro rata in cents, exact at 100 % (no per-device rounding drift). */
export function proRataCents(priceCents: number, done: number, total: number): number {
  return total > 0 ? Math.round((priceCents * done) / total) : 0;
}

export interface BatchFigures {
  defibrillatorsSum: number;
  defibrillatorsDone: number;
  amountPerDefibCents: number;
}

/**
 * Recomputes a lot's figures from its missions and the recruited technician's progress, and the open invoice's
 * validated amount and progression. Completed lots keep the figures frozen at their finish. The lot's geometry (where
 * its sites are, docs/decisions/025) always follows its missions: every change of a lot's missions calls this; a change
 * of progress alone skips it (its sites cannot have moved). The figures are counted and written in one statement
 * (docs/decisions/046).
 */
export async function recomputeBatchFigures(
  tx: DbOrTx,
  batchId: string,
  /** false when only the recruit's progress changed (a device done / to do): the lot's sites are what they were. */
  { geometry = true }: { geometry?: boolean } = {},
): Promise<BatchFigures | null> {
  if (geometry) await refreshLotsGeometry(tx, [batchId]);
  const [lot] = (await batchFiguresStatement(tx).execute({ batchId })).rows;
  return lot ?? null;
}

/**
 * recomputeBatchFigures in one statement (docs/decisions/033 and 046), kept in the database since migration 0051 so
 * that a device's progress runs it in the same call (decision 070): it reads the lot, its recruit, its missions and
 * those done, writes the lot's figures and its recruit's open invoice unless the lot is completed, and answers the
 * figures. The caller holds the lot's lock.
 */
const batchFiguresStatement = (tx: DbOrTx) =>
  preparedSql<BatchFigures & Record<string, number>>(tx, 'lot-figures', () => sql`select * from maillon_recompute_batch_figures(${sql.placeholder('batchId')})`);

async function lockApplication(tx: DbOrTx, applicationId: string) {
  const result = await tx.execute<{ id: string }>(sql`select id from applications where id = ${applicationId} for update`);
  if (result.rows.length === 0) throw new AppError('NOT_FOUND', 'Candidature introuvable');
  const [application] = await tx.select().from(applications).where(eq(applications.id, applicationId)).limit(1);
  return application!;
}

async function lockBatch(tx: DbOrTx, batchId: string) {
  await tx.execute(sql`select id from mission_batches where id = ${batchId} for update`);
  const [lot] = await tx.select().from(missionBatches).where(eq(missionBatches.id, batchId)).limit(1);
  if (!lot) throw new AppError('NOT_FOUND', 'Lot introuvable');
  return lot;
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string; cause?: { code?: string } })?.code ?? (error as { cause?: { code?: string } })?.cause?.code;
  return code === '23505';
}

/**
 * Admin Sélectionner: the application becomes Recruté and the lot's invoice is created ("Mission à terminer").
 * Only one technician per lot: a concurrent second selection answers 409 "Déjà assigné". Idempotent.
 */
export async function recruitApplication(tx: DbOrTx, { applicationId }: { applicationId: string }) {
  const application = await lockApplication(tx, applicationId);
  if (!application.batchId) throw new AppError('BAD_REQUEST', 'Cette candidature ne concerne pas un lot');
  const lot = await lockBatch(tx, application.batchId);
  if (application.status === 'Recruté') return application;
  if (lot.status === 'completed' || lot.isSystem) throw new AppError('INVALID_TRANSITION', 'Ce lot est terminé');
  if (!['En attente', 'pending', 'Refusé'].includes(application.status)) {
    throw new AppError('INVALID_TRANSITION', 'Cette candidature ne peut plus être sélectionnée');
  }
  const recruited = await getRecruitedTechnicianId(tx, lot.id);
  if (recruited) throw new AppError('ALREADY_ASSIGNED', 'Déjà assigné');
  try {
    await tx.execute(sql`savepoint recruit`);
    await tx.update(applications).set({ status: 'Recruté' }).where(eq(applications.id, applicationId));
    await tx.execute(sql`release savepoint recruit`);
  } catch (error) {
    if (isUniqueViolation(error)) {
      await tx.execute(sql`rollback to savepoint recruit`);
      throw new AppError('ALREADY_ASSIGNED', 'Déjà assigné');
    }
    throw error;
  }
  await tx
    .insert(invoices)
    .values({
      technicianId: application.technicianId,
      batchId: lot.id,
      missionTitle: lot.title,
      description: lot.description,
      status: 'Mission à terminer',
      batchPriceCents: lot.priceCents,
      initialAmountCents: lot.priceCents,
      amountCents: lot.priceCents,
      validatedAmountCents: 0,
      progression: `0/${lot.defibrillatorsSum}`,
    })
    .onConflictDoUpdate({
      target: [invoices.batchId, invoices.technicianId],
      set: { status: 'Mission à terminer', validatedAmountCents: 0, missionTitle: lot.title },
    });
  await recomputeBatchFigures(tx, lot.id);
  return { ...application, status: 'Recruté' };
}

/** Saves a device's progress for the lot's recruited technician and keeps the lot figures and invoice in step. */
export async function saveMissionProgress(
  tx: DbOrTx,
  {
    missionId,
    technicianId,
    patch,
  }: {
    missionId: string;
    technicianId: string;
    patch: Partial<{
      plannedVisitDate: Date | null;
      visitWindow: string | null;
      visitStartTime: string | null;
      visitEndTime: string | null;
      isCompleted: boolean;
      technicianComments: string | null;
      adminComments: string | null;
    }>;
  },
) {
  const [row] = await tx
    .insert(technicianMissionData)
    .values({ missionId, technicianId, ...patch })
    .onConflictDoUpdate({ target: [technicianMissionData.missionId, technicianMissionData.technicianId], set: { ...patch, updatedAt: new Date() } })
    .returning();
  if (patch.isCompleted !== undefined) {
    const [mission] = await tx.select({ batchId: missions.batchId }).from(missions).where(eq(missions.id, missionId)).limit(1);
    const lotId = mission?.batchId;
    if (lotId) await recomputeBatchFigures(tx, lotId, { geometry: false });
  }
  return row!;
}

/**
 * Whether the lot's recruit may no longer cancel (decisions.md §4): a device of the lot done by it, or a parcel for the
 * lot shipped. As SQL, for the values given or for the columns of a row (the field-work screen reads it with the
 * application, field-work.repository).
 */
export const cancellationBlockedSql = (batchId: SQLWrapper | string, technicianId: SQLWrapper | string) => sql<boolean>`(exists (
      select 1 from technician_mission_data d join missions m on m.id = d.mission_id
      where m.batch_id = ${batchId} and d.technician_id = ${technicianId} and d.is_completed
    ) or exists (
      select 1 from shipments s where s.batch_id = ${batchId} and s.status in ('in_transit', 'delivered')
    ))`;

/** A Recruté application can be cancelled while no device is done and no parcel is on its way or received. */
export async function isCancellationBlocked(tx: DbOrTx, { batchId, technicianId }: { batchId: string; technicianId: string }): Promise<boolean> {
  const result = await tx.execute<{ blocked: boolean }>(sql`select ${cancellationBlockedSql(batchId, technicianId)} as blocked`);
  return Boolean(result.rows[0]?.blocked);
}

/**
 * Technician Annuler: application Annulé, the open invoice removed, the lot open for a new selection.
 * Progress records are kept.
 */
export async function cancelApplication(tx: DbOrTx, { applicationId }: { applicationId: string }) {
  const application = await lockApplication(tx, applicationId);
  if (application.status === 'Annulé') return application;
  if (application.status !== 'Recruté' || !application.batchId) {
    throw new AppError('INVALID_TRANSITION', 'Seule une mission en cours peut être annulée');
  }
  await lockBatch(tx, application.batchId);
  if (await isCancellationBlocked(tx, { batchId: application.batchId, technicianId: application.technicianId })) {
    throw new AppError('INVALID_TRANSITION', 'Annulation impossible : un défibrillateur est déjà traité ou un colis a été expédié');
  }
  await tx.update(applications).set({ status: 'Annulé' }).where(eq(applications.id, applicationId));
  await tx
    .delete(invoices)
    .where(and(eq(invoices.batchId, application.batchId), eq(invoices.technicianId, application.technicianId), eq(invoices.status, 'Mission à terminer')));
  await recomputeBatchFigures(tx, application.batchId);
  return { ...application, status: 'Annulé' };
}

/**
 * Finishes a lot through its recruited application (technician "Marquer comme terminé" or admin force).
 * Done devices are completed; the others are cancelled and moved to the system lot; the invoice becomes
 * "Facture à soumettre" with the pro-rata amount; the technician's completed missions count grows by one.
 * Idempotent: finishing an already finished application answers the same result.
 */
export async function finishApplication(tx: DbOrTx, { applicationId, force }: { applicationId: string; force: boolean }) {
  const application = await lockApplication(tx, applicationId);
  if (application.status === 'Terminé') return application;
  if (application.status !== 'Recruté' || !application.batchId) {
    throw new AppError('INVALID_TRANSITION', 'Seule une mission en cours peut être terminée');
  }
  const lot = await lockBatch(tx, application.batchId);
  const figures = await recomputeBatchFigures(tx, lot.id);
  const total = figures?.defibrillatorsSum ?? 0;
  const done = figures?.defibrillatorsDone ?? 0;
  if (!force && (total === 0 || done < total)) {
    throw new AppError('INVALID_TRANSITION', 'Toutes les missions doivent-êtres complétées pour clôturer la mission');
  }
  await tx.update(applications).set({ status: 'Terminé' }).where(eq(applications.id, applicationId));

  const doneRows = await tx
    .select({ missionId: technicianMissionData.missionId })
    .from(technicianMissionData)
    .innerJoin(missions, eq(missions.id, technicianMissionData.missionId))
    .where(and(eq(missions.batchId, lot.id), eq(technicianMissionData.technicianId, application.technicianId), eq(technicianMissionData.isCompleted, true)));
  const doneIds = doneRows.map((r) => r.missionId);
  if (doneIds.length > 0) await tx.update(missions).set({ status: 'completed' }).where(inArray(missions.id, doneIds));
  const leftovers = await tx
    .select({ id: missions.id })
    .from(missions)
    .where(and(eq(missions.batchId, lot.id), doneIds.length > 0 ? sql`${missions.id} not in ${doneIds}` : sql`true`));
  if (leftovers.length > 0) {
    const systemLotId = await ensureSystemLot(tx);
    await tx
      .update(missions)
      .set({ status: 'cancelled', batchId: systemLotId, originBatchId: lot.id })
      .where(inArray(missions.id, leftovers.map((m) => m.id)));
    await recomputeBatchFigures(tx, systemLotId);
    await refreshLotsGeometry(tx, [lot.id]);
  }
  await tx
    .update(missionBatches)
    .set({ status: 'completed', defibrillatorsSum: total, defibrillatorsDone: done })
    .where(eq(missionBatches.id, lot.id));
  await tx
    .update(invoices)
    .set({ status: 'Facture à soumettre', validatedAmountCents: proRataCents(lot.priceCents, done, total), progression: `${done}/${total}` })
    .where(and(eq(invoices.batchId, lot.id), eq(invoices.technicianId, application.technicianId), eq(invoices.status, 'Mission à terminer')));
  await tx
    .update(technicians)
    .set({ completedMissions: sql`${technicians.completedMissions} + 1` })
    .where(eq(technicians.id, application.technicianId));
  return { ...application, status: 'Terminé' };
}

/** Finishes a lot (admin PUT /api/mission-batches/{id}/complete): through its recruit if any; idempotent. */
export async function completeBatch(tx: DbOrTx, { batchId }: { batchId: string }) {
  const lot = await lockBatch(tx, batchId);
  if (lot.isSystem) throw new AppError('INVALID_TRANSITION', 'Le lot système ne peut pas être terminé');
  if (lot.status === 'completed') return lot;
  const [recruit] = await tx
    .select({ id: applications.id })
    .from(applications)
    .where(and(eq(applications.batchId, batchId), eq(applications.status, 'Recruté')))
    .limit(1);
  if (recruit) {
    await finishApplication(tx, { applicationId: recruit.id, force: true });
  } else {
    await tx.update(missionBatches).set({ status: 'completed' }).where(eq(missionBatches.id, batchId));
  }
  const [updated] = await tx.select().from(missionBatches).where(eq(missionBatches.id, batchId));
  return updated!;
}

/** Keeps formationCompleted / formationStatus true to the views (every current resource viewed). */
export async function syncFormation(tx: DbOrTx, technicianId?: string): Promise<void> {
  await tx.execute(sql`
    update technicians t set
      formation_completed = s.complete,
      formation_status = case when s.complete then ${FORMATION_DONE} else ${FORMATION_NOT_DONE} end,
      updated_at = now()
    from (
      select tt.id, not exists (
        select 1 from learning_resources lr
        where not exists (select 1 from resource_views rv where rv.resource_id = lr.id and rv.technician_id = tt.id)
      ) as complete
      from technicians tt ${technicianId ? sql`where tt.id = ${technicianId}` : sql``}
    ) s
    where t.id = s.id and (t.formation_completed is distinct from s.complete)`);
}

