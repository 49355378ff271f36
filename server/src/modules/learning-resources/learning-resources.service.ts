import { and, eq, sql } from 'drizzle-orm';
import type { RecordViewResponse, ResourceView } from '@maillon/common/schemas/learning-resources';
import type { Db } from '../../db/client';
import { learningResources, resourceViews, technicians } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { jsonRowSql, likePattern } from '../../lib/pagination';
import { syncFormation } from '../lifecycle/lifecycle.service';

type ViewRow = typeof resourceViews.$inferSelect;

function toView(row: Pick<ViewRow, 'id' | 'resourceId' | 'technicianId' | 'viewedAt'>): ResourceView {
  return { id: row.id, resourceId: row.resourceId, technicianId: row.technicianId, viewedAt: row.viewedAt.toISOString() };
}

/** A module as LearningResource, a row of the JSON PostgreSQL writes (decision 049). */
const resourceJson = jsonRowSql({
  id: 'r.id',
  title: 'r.title',
  description: 'r.description',
  type: 'r.type',
  url: 'r.url',
  duration: 'r.duration',
  createdAt: 'maillon_json_time(r.created_at)',
});

/** A module opened, as ResourceView (toView), a row of the JSON PostgreSQL writes. */
const viewJson = jsonRowSql({ id: 'v.id', resourceId: 'v.resource_id', technicianId: 'v.technician_id', viewedAt: 'maillon_json_time(v.viewed_at)' });

/**
 * Every current training module, oldest first (the order of the course), then by title, as the JSON text the route
 * sends (decision 049): one statement, nothing parsed or serialised in Node.
 */
export async function listLearningResourcesText(db: Db, { search }: { search?: string | undefined }): Promise<string> {
  const pattern = search ? likePattern(search) : null;
  const { rows } = await db.execute<{ json: string }>(sql`
    select coalesce(json_agg(${resourceJson} order by r.created_at, r.title, r.id), '[]')::text as json
    from learning_resources r
    ${pattern === null ? sql`` : sql`where r.title ilike ${pattern} or r.description ilike ${pattern}`}`);
  return rows[0]!.json;
}

/** The modules a technician opened, first opened first, as the JSON text the route sends (ResourceView, decision 049). */
export async function listResourceViewsText(db: Db, { technicianId }: { technicianId: string }): Promise<string> {
  const { rows } = await db.execute<{ json: string }>(sql`
    select coalesce(json_agg(${viewJson} order by v.viewed_at, v.id), '[]')::text as json from resource_views v where v.technician_id = ${technicianId}`);
  return rows[0]!.json;
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
