import { and, asc, eq, ilike, or, sql } from 'drizzle-orm';
import type { LearningResource, RecordViewResponse, ResourceView } from '@maillon/common/schemas/learning-resources';
import type { Db } from '../../db/client';
import { learningResources, resourceViews, technicians } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { likePattern } from '../../lib/pagination';
import { syncFormation } from '../lifecycle/lifecycle.service';

type ViewRow = typeof resourceViews.$inferSelect;

function toView(row: Pick<ViewRow, 'id' | 'resourceId' | 'technicianId' | 'viewedAt'>): ResourceView {
  return { id: row.id, resourceId: row.resourceId, technicianId: row.technicianId, viewedAt: row.viewedAt.toISOString() };
}

/** Every current training module, oldest first (the order of the course), then by title. */
export async function listLearningResources(db: Db, { search }: { search?: string | undefined }): Promise<LearningResource[]> {
  const rows = await db
    .select({
      id: learningResources.id,
      title: learningResources.title,
      description: learningResources.description,
      type: learningResources.type,
      url: learningResources.url,
      duration: learningResources.duration,
      createdAt: learningResources.createdAt,
    })
    .from(learningResources)
    .where(search ? or(ilike(learningResources.title, likePattern(search)), ilike(learningResources.description, likePattern(search))) : undefined)
    .orderBy(asc(learningResources.createdAt), asc(learningResources.title), asc(learningResources.id));
  return rows.map((r) => ({ ...r, type: r.type as LearningResource['type'], createdAt: r.createdAt.toISOString() }));
}

export async function listResourceViews(db: Db, { technicianId }: { technicianId: string }): Promise<ResourceView[]> {
  const rows = await db
    .select({ id: resourceViews.id, resourceId: resourceViews.resourceId, technicianId: resourceViews.technicianId, viewedAt: resourceViews.viewedAt })
    .from(resourceViews)
    .where(eq(resourceViews.technicianId, technicianId))
    .orderBy(asc(resourceViews.viewedAt));
  return rows.map(toView);
}

/**
 * Records that a technician opened a module. Idempotent: a second opening keeps the first date.
 * The technician's formationCompleted / formationStatus are brought in step in the same transaction.
 */
export async function recordResourceView(db: Db, { resourceId, technicianId }: { resourceId: string; technicianId: string }): Promise<RecordViewResponse> {
  return db.transaction(async (tx) => {
    const [resource] = await tx.select({ id: learningResources.id }).from(learningResources).where(eq(learningResources.id, resourceId)).limit(1);
    if (!resource) throw new AppError('NOT_FOUND', 'Ressource de formation introuvable');
    const [technician] = await tx.select({ id: technicians.id }).from(technicians).where(eq(technicians.id, technicianId)).limit(1);
    if (!technician) throw new AppError('NOT_FOUND', 'Technicien introuvable');

    await tx.insert(resourceViews).values({ resourceId, technicianId }).onConflictDoNothing();
    const [view] = await tx
      .select({ id: resourceViews.id, resourceId: resourceViews.resourceId, technicianId: resourceViews.technicianId, viewedAt: resourceViews.viewedAt })
      .from(resourceViews)
      .where(and(eq(resourceViews.resourceId, resourceId), eq(resourceViews.technicianId, technicianId)))
      .limit(1);
    await syncFormation(tx, technicianId);

    const [counts] = await tx
      .select({
        total: sql<number>`(select count(*) from learning_resources)::int`,
        read: sql<number>`(select count(*) from resource_views rv join learning_resources lr on lr.id = rv.resource_id where rv.technician_id = ${technicianId})::int`,
        formationCompleted: technicians.formationCompleted,
        formationStatus: technicians.formationStatus,
      })
      .from(technicians)
      .where(eq(technicians.id, technicianId));
    return {
      view: toView(view!),
      formation: {
        total: Number(counts!.total),
        read: Number(counts!.read),
        formationCompleted: counts!.formationCompleted,
        formationStatus: counts!.formationStatus,
      },
    };
  });
}
