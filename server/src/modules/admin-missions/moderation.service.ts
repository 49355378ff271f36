import { and, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { VALIDATED_MISSION_BUDGET_EUROS, VALIDATED_MISSION_DEADLINE_DAYS } from '@maillon/common/constants';
import { eurosToCents } from '@maillon/common/format';
import type { JobStatus } from '@maillon/common/enums';
import type { IngestResponse, Job, JobCounts, JobFields } from '@maillon/common/schemas/moderation';
import type { Mission } from '@maillon/common/schemas/admin-missions';
import type { Db, DbOrTx } from '../../db/client';
import { jobs, missionBatches, missions } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { audit } from '../../lib/audit';
import { geocode, parseAddress } from '../../lib/geo';
import { likePattern } from '../../lib/pagination';
import { linkMissionToDevice, registerVisitDevices } from '../devices/devices.service';
import { missionApproxColumns } from '../../lib/positions';
import { isUniqueViolation, jobColumns, missionColumns, toJob, toMission } from './admin-missions.mapper';

const DUPLICATE_MESSAGE = 'Une visite identique (même numéro de série et type de visite) est déjà à modérer';
const JOB_NOT_FOUND = 'Visite introuvable';

/** Postal code and city from the address when missing, and a position from them when no coordinates were given. */
export function completeLocation<T extends JobFields>(fields: T): T {
  const parsed = parseAddress(fields.address);
  const postalCode = fields.postalCode ?? parsed.postalCode ?? null;
  const city = fields.city ?? parsed.city ?? null;
  let { latitude, longitude } = fields;
  if (latitude === null || longitude === null) {
    const found = geocode({ postalCode, city, address: fields.address, department: fields.department });
    // A department centre is too vague to be stored as the visit's position.
    if (found && found.precision !== 'department') {
      latitude = found.lat;
      longitude = found.lon;
    } else {
      latitude = null;
      longitude = null;
    }
  }
  return { ...fields, postalCode, city, latitude, longitude };
}

export async function listJobs(
  db: Db,
  { status, search, limit, offset }: { status: JobStatus; search?: string | undefined; limit: number; offset: number },
): Promise<{ items: Job[]; total: number }> {
  const filters: SQL[] = [eq(jobs.status, status)];
  if (search) {
    const pattern = likePattern(search);
    filters.push(
      or(
        ilike(jobs.serialNumber, pattern),
        ilike(jobs.clientName, pattern),
        ilike(jobs.address, pattern),
        ilike(jobs.department, pattern),
        ilike(jobs.defibrillatorModel, pattern),
        ilike(jobs.visitType, pattern),
      )!,
    );
  }
  const where = and(...filters);
  const [rows, [total]] = await Promise.all([
    db.select(jobColumns).from(jobs).where(where).orderBy(desc(jobs.createdAt), desc(jobs.id)).limit(limit).offset(offset),
    db.select({ n: count() }).from(jobs).where(where),
  ]);
  return { items: rows.map(toJob), total: Number(total?.n ?? 0) };
}

export async function countJobs(db: Db): Promise<JobCounts> {
  const rows = await db.select({ status: jobs.status, n: count() }).from(jobs).groupBy(jobs.status);
  const byStatus = new Map(rows.map((r) => [r.status, Number(r.n)]));
  return { pending: byStatus.get('pending') ?? 0, refused: byStatus.get('refused') ?? 0 };
}

async function findJob(tx: DbOrTx, jobId: string, lock = false) {
  if (lock) await tx.execute(sql`select id from jobs where id = ${jobId} for update`);
  const [row] = await tx.select(jobColumns).from(jobs).where(eq(jobs.id, jobId)).limit(1);
  if (!row) throw notFound(JOB_NOT_FOUND);
  return row;
}

/** Ajout Manuel: a pending job (spec 02 §4). */
export async function createManualJob(db: Db, { fields, actorUserId }: { fields: JobFields; actorUserId: string }): Promise<Job> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(jobs)
        .values({ ...completeLocation(fields), source: 'manual', status: 'pending' })
        .returning(jobColumns);
      await registerVisitDevices(tx, [row!]);
      await audit(tx, { actorUserId, action: 'job.create', entity: 'job', entityId: row!.id, after: { serialNumber: row!.serialNumber } });
      return toJob(row!);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('ALREADY_EXISTS', DUPLICATE_MESSAGE);
    throw error;
  }
}

/** Modifier: the visit fields of a pending or refused job. */
export async function updateJob(db: Db, { jobId, fields, actorUserId }: { jobId: string; fields: JobFields; actorUserId: string }): Promise<Job> {
  try {
    return await db.transaction(async (tx) => {
      const before = await findJob(tx, jobId, true);
      const [row] = await tx
        .update(jobs)
        .set({ ...completeLocation(fields), updatedAt: new Date() })
        .where(eq(jobs.id, jobId))
        .returning(jobColumns);
      await registerVisitDevices(tx, [row!]);
      await audit(tx, { actorUserId, action: 'job.update', entity: 'job', entityId: jobId, before: toJob(before), after: toJob(row!) });
      return toJob(row!);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('ALREADY_EXISTS', DUPLICATE_MESSAGE);
    throw error;
  }
}

/** Refuser (pending → refused) and Restaurer (refused → pending); setting the current status again changes nothing. */
export async function setJobStatus(db: Db, { jobId, status, actorUserId }: { jobId: string; status: JobStatus; actorUserId: string }): Promise<Job> {
  try {
    return await db.transaction(async (tx) => {
      const before = await findJob(tx, jobId, true);
      if (before.status === status) return toJob(before);
      const [row] = await tx.update(jobs).set({ status, updatedAt: new Date() }).where(eq(jobs.id, jobId)).returning(jobColumns);
      await audit(tx, {
        actorUserId,
        action: status === 'refused' ? 'job.refuse' : 'job.restore',
        entity: 'job',
        entityId: jobId,
        before: { status: before.status },
        after: { status },
      });
      return toJob(row!);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('ALREADY_EXISTS', DUPLICATE_MESSAGE);
    throw error;
  }
}

export async function deleteJob(db: Db, { jobId, actorUserId }: { jobId: string; actorUserId: string }): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await findJob(tx, jobId, true);
    await tx.delete(jobs).where(eq(jobs.id, jobId));
    await audit(tx, { actorUserId, action: 'job.delete', entity: 'job', entityId: jobId, before: toJob(before) });
  });
}

/** Today + 30 days at 18:00 UTC, the deadline of a mission created by Valider (spec 02 §9). */
export function validatedMissionDeadline(now: Date = new Date()): Date {
  const deadline = new Date(now.getTime());
  deadline.setUTCDate(deadline.getUTCDate() + VALIDATED_MISSION_DEADLINE_DAYS);
  deadline.setUTCHours(18, 0, 0, 0);
  return deadline;
}

/**
 * Valider, atomically: the pending job becomes an active mission without a lot ("À trier") — budget 150 €,
 * deadline today + 30 days, title "Maintenance - {client}", tags [visit type, model], coordinates copied —
 * and the job is deleted. A second validation of the same job finds nothing (404).
 */
export async function validateJob(db: Db, { jobId, actorUserId }: { jobId: string; actorUserId: string }): Promise<Mission> {
  return db.transaction(async (tx) => {
    const job = await findJob(tx, jobId, true);
    if (job.status !== 'pending') throw new AppError('INVALID_TRANSITION', 'Seule une visite à modérer peut être validée');
    const [created] = await tx
      .insert(missions)
      .values({
        title: `Maintenance - ${job.clientName}`,
        description: `${job.visitType} - ${job.defibrillatorModel}`,
        location: job.address,
        department: job.department,
        budgetCents: eurosToCents(VALIDATED_MISSION_BUDGET_EUROS),
        deadline: validatedMissionDeadline(),
        tags: [job.visitType, job.defibrillatorModel],
        status: 'active',
        batchId: null,
        serialNumber: job.serialNumber,
        clientName: job.clientName,
        defibrillatorModel: job.defibrillatorModel,
        visitType: job.visitType,
        telSite: job.telSite,
        emailSite: job.emailSite,
        completionLink: job.completionLink,
        observations: job.observations,
        postalCode: job.postalCode,
        city: job.city,
        latitude: job.latitude,
        longitude: job.longitude,
        ...missionApproxColumns({ location: job.address, postalCode: job.postalCode, city: job.city, department: job.department }),
      })
      .returning({ id: missions.id });
    await linkMissionToDevice(tx, created!.id);
    await tx.delete(jobs).where(eq(jobs.id, jobId));
    await audit(tx, { actorUserId, action: 'job.validate', entity: 'job', entityId: jobId, before: toJob(job), after: { missionId: created!.id } });
    const [row] = await tx
      .select(missionColumns)
      .from(missions)
      .leftJoin(missionBatches, eq(missionBatches.id, missions.batchId))
      .where(eq(missions.id, created!.id));
    return toMission(row!);
  });
}

/**
 * Ingestion from the visit-suggestion tool: every item already validated; all are written in one transaction.
 * Idempotent while pending: an item with the serial number + visit type of a pending job answers that job.
 */
export async function ingestJobs(db: Db, { items, source }: { items: JobFields[]; source: string }): Promise<IngestResponse> {
  return db.transaction(async (tx) => {
    const result: IngestResponse = { created: 0, duplicates: 0, items: [] };
    const located = items.map(completeLocation);
    await registerVisitDevices(tx, located);
    for (const [index, fields] of located.entries()) {
      const [inserted] = await tx
        .insert(jobs)
        .values({ ...fields, source, status: 'pending' })
        .onConflictDoNothing()
        .returning({ id: jobs.id });
      if (inserted) {
        result.created += 1;
        result.items.push({ index, id: inserted.id, status: 'created' });
        continue;
      }
      const [existing] = await tx
        .select({ id: jobs.id })
        .from(jobs)
        .where(and(eq(jobs.serialNumber, fields.serialNumber), eq(jobs.visitType, fields.visitType), eq(jobs.status, 'pending')))
        .limit(1);
      if (!existing) throw new AppError('CONFLICT', 'Conflit lors de l’import, réessayez');
      result.duplicates += 1;
      result.items.push({ index, id: existing.id, status: 'duplicate' });
    }
    await audit(tx, { actorUserId: null, action: 'job.ingest', entity: 'job', after: { source, created: result.created, duplicates: result.duplicates } });
    return result;
  });
}

/** Pending jobs already holding one of these serial number + visit type pairs. */
export async function findPendingKeys(db: DbOrTx, serialNumbers: string[]): Promise<Set<string>> {
  if (serialNumbers.length === 0) return new Set();
  const rows = await db
    .select({ serialNumber: jobs.serialNumber, visitType: jobs.visitType })
    .from(jobs)
    .where(and(eq(jobs.status, 'pending'), inArray(jobs.serialNumber, [...new Set(serialNumbers)])));
  return new Set(rows.map((r) => jobKey(r.serialNumber, r.visitType)));
}

export function jobKey(serialNumber: string, visitType: string): string {
  return `${serialNumber}\u0000${visitType}`;
}
