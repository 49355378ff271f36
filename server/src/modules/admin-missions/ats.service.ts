import { asc, count, eq, sql } from 'drizzle-orm';
import type { ApplicationWithTechnician } from '@maillon/common/schemas/admin-missions';
import type { Db, DbOrTx } from '../../db/client';
import { applications, comments, technicians } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { audit } from '../../lib/audit';
import { recruitApplication } from '../lifecycle/lifecycle.service';
import { applicationWithTechnicianColumns, toApplicationWithTechnician } from './admin-missions.mapper';

const APPLICATION_NOT_FOUND = 'Candidature introuvable';

/** The ATS list of a lot (or of a single mission), oldest application first. */
export async function listApplicationsWithTechnicians(
  db: Db,
  { batchId, missionId, limit, offset }: { batchId?: string | undefined; missionId?: string | undefined; limit: number; offset: number },
): Promise<{ items: ApplicationWithTechnician[]; total: number }> {
  const where = batchId ? eq(applications.batchId, batchId) : eq(applications.missionId, missionId!);
  const [rows, [total]] = await Promise.all([
    db
      .select(applicationWithTechnicianColumns)
      .from(applications)
      .innerJoin(technicians, eq(technicians.id, applications.technicianId))
      .where(where)
      .orderBy(asc(applications.appliedAt), asc(applications.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(applications).where(where),
  ]);
  return { items: rows.map(toApplicationWithTechnician), total: Number(total?.n ?? 0) };
}

async function getApplicationWithTechnician(tx: DbOrTx, applicationId: string): Promise<ApplicationWithTechnician> {
  const [row] = await tx
    .select(applicationWithTechnicianColumns)
    .from(applications)
    .innerJoin(technicians, eq(technicians.id, applications.technicianId))
    .where(eq(applications.id, applicationId))
    .limit(1);
  if (!row) throw notFound(APPLICATION_NOT_FOUND);
  return toApplicationWithTechnician(row);
}

/**
 * Sélectionner (Recruté, through the shared lifecycle: one technician per lot, invoice created) or Refuser.
 * A recruited or finished application cannot be refused here (the technician cancels, or the lot is finished).
 */
export async function decideApplication(
  db: Db,
  { applicationId, status, actorUserId }: { applicationId: string; status: 'Recruté' | 'Refusé'; actorUserId: string },
): Promise<ApplicationWithTechnician> {
  return db.transaction(async (tx) => {
    const before = await getApplicationWithTechnician(tx, applicationId);
    if (status === 'Recruté') {
      await recruitApplication(tx, { applicationId });
    } else {
      await tx.execute(sql`select id from applications where id = ${applicationId} for update`);
      const [current] = await tx.select({ status: applications.status }).from(applications).where(eq(applications.id, applicationId));
      if (current!.status === 'Refusé') return before;
      if (!['En attente', 'pending'].includes(current!.status)) {
        throw new AppError('INVALID_TRANSITION', 'Seule une candidature en attente peut être refusée');
      }
      await tx.update(applications).set({ status: 'Refusé' }).where(eq(applications.id, applicationId));
    }
    const after = await getApplicationWithTechnician(tx, applicationId);
    if (after.status !== before.status) {
      await audit(tx, {
        actorUserId,
        action: status === 'Recruté' ? 'application.recruit' : 'application.refuse',
        entity: 'application',
        entityId: applicationId,
        before: { status: before.status },
        after: { status: after.status, batchId: after.batchId, technicianId: after.technicianId },
      });
    }
    return after;
  });
}

/**
 * The administrator's comment to the technician on an application: kept on the application and posted as an
 * administrator message on the lot (comments, authorRole admin) so the technician sees it with the lot.
 */
export async function saveAdminComment(
  db: Db,
  { applicationId, adminComment, actorUserId }: { applicationId: string; adminComment: string; actorUserId: string },
): Promise<ApplicationWithTechnician> {
  return db.transaction(async (tx) => {
    const application = await getApplicationWithTechnician(tx, applicationId);
    await tx.update(applications).set({ adminComment }).where(eq(applications.id, applicationId));
    await tx.insert(comments).values({
      batchId: application.batchId,
      missionId: application.missionId,
      technicianId: application.technicianId,
      authorRole: 'admin',
      content: adminComment,
    });
    await audit(tx, { actorUserId, action: 'application.comment', entity: 'application', entityId: applicationId, after: { adminComment } });
    return { ...application, adminComment };
  });
}
