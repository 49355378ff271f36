import { and, asc, count, desc, eq, ilike, or, sql } from 'drizzle-orm';
import type { LearningResource } from '@maillon/common/schemas/learning-resources';
import type { LearningResourceRequest, ResourceReader } from '@maillon/common/schemas/library';
import type { Db, DbOrTx } from '../../db/client';
import { learningResources, resourceViews, technicians } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { audit } from '../../lib/audit';
import { likePattern, literalLimit } from '../../lib/pagination';
import { countReadersOfResource, readersByResource } from '../../lib/row-counts';
import { syncFormation } from '../lifecycle/lifecycle.service';

type ResourceRow = typeof learningResources.$inferSelect;

function toResource(row: ResourceRow): LearningResource {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    type: row.type as LearningResource['type'],
    url: row.url,
    duration: row.duration,
    createdAt: row.createdAt.toISOString(),
  };
}

function values(input: LearningResourceRequest) {
  return {
    title: input.title,
    description: input.description,
    type: input.type,
    url: input.url,
    duration: input.duration ?? null,
  };
}

/** A new module makes every technician's training incomplete until they view it (decisions.md §4), in the same transaction. */
export async function createLearningResource(
  db: Db,
  { actorUserId, input }: { actorUserId: string; input: LearningResourceRequest },
): Promise<LearningResource> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(learningResources).values(values(input)).returning();
    await syncFormation(tx);
    await audit(tx, {
      actorUserId,
      action: 'learning-resource.create',
      entity: 'learning_resource',
      entityId: row!.id,
      after: { title: row!.title },
    });
    return toResource(row!);
  });
}

export async function updateLearningResource(
  db: Db,
  { id, input }: { id: string; input: LearningResourceRequest },
): Promise<LearningResource> {
  const [row] = await db.update(learningResources).set(values(input)).where(eq(learningResources.id, id)).returning();
  if (!row) throw new AppError('NOT_FOUND', 'Ressource introuvable');
  return toResource(row);
}

/** Removing a module (and its views) may complete the training of those who had read all the others. */
export async function deleteLearningResource(db: Db, { actorUserId, id }: { actorUserId: string; id: string }): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(learningResources)
      .where(eq(learningResources.id, id))
      .returning({ id: learningResources.id, title: learningResources.title });
    if (!row) throw new AppError('NOT_FOUND', 'Ressource introuvable');
    await syncFormation(tx);
    await audit(tx, {
      actorUserId,
      action: 'learning-resource.delete',
      entity: 'learning_resource',
      entityId: id,
      before: { title: row.title },
    });
  });
}

async function assertResourceExists(db: DbOrTx, id: string): Promise<void> {
  const [row] = await db
    .select({ id: learningResources.id })
    .from(learningResources)
    .where(eq(learningResources.id, id))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', 'Ressource introuvable');
}

/** The technicians who opened a module, most recent first, searchable by name or e-mail. */
export async function listResourceReaders(
  db: Db,
  { id, search, limit, offset }: { id: string; search?: string | undefined; limit: number; offset: number },
): Promise<{ items: ResourceReader[]; total: number }> {
  await assertResourceExists(db, id);
  const pattern = search ? likePattern(search) : null;
  const where = and(
    eq(resourceViews.resourceId, id),
    pattern
      ? or(
          sql`(${technicians.firstName} || ' ' || ${technicians.lastName}) ilike ${pattern}`,
          sql`(${technicians.lastName} || ' ' || ${technicians.firstName}) ilike ${pattern}`,
          ilike(technicians.email, pattern),
        )
      : undefined,
  );
  // The page comes from resource_views_resource_recent_idx; its total from the kept counts without a search.
  const [rows, total] = await Promise.all([
    db
      .select({
        technicianId: technicians.id,
        firstName: technicians.firstName,
        lastName: technicians.lastName,
        email: technicians.email,
        viewedAt: resourceViews.viewedAt,
      })
      .from(resourceViews)
      .innerJoin(technicians, eq(technicians.id, resourceViews.technicianId))
      .where(where)
      .orderBy(desc(resourceViews.viewedAt), asc(resourceViews.technicianId))
      .limit(literalLimit(limit))
      .offset(offset),
    pattern
      ? db
          .select({ n: count() })
          .from(resourceViews)
          .innerJoin(technicians, eq(technicians.id, resourceViews.technicianId))
          .where(where)
          .then(([row]) => Number(row?.n ?? 0))
      : countReadersOfResource(db, id),
  ]);
  return { items: rows.map((r) => ({ ...r, viewedAt: r.viewedAt.toISOString() })), total };
}

/** Number of readers of each module, for the library cards. */
export async function countReadersByResource(db: Db): Promise<Record<string, number>> {
  // Kept by the counting triggers of resource_views (migration 0032): grouping 100 000 views took 29 ms at full scale.
  return readersByResource(db);
}
