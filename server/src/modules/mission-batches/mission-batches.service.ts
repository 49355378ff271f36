import { and, arrayContains, asc, count, desc, eq, ilike, ne, or, sql, type SQL } from 'drizzle-orm';
import { DEFAULT_LOT_DESCRIPTION } from '@maillon/common/constants';
import { centsToEuros } from '@maillon/common/format';
import type { AvailableLot, LotFilters } from '@maillon/common/schemas/lots';
import type { Db } from '../../db/client';
import { applications, missionBatches, missions } from '../../db/schema';
import { likePattern, pageTotal, windowTotal } from '../../lib/pagination';

/** Lots a technician may see: visible, not completed, never the system lot (decisions.md §4). */
export function isOpenLot(): SQL {
  return and(eq(missionBatches.visibility, 'visible'), ne(missionBatches.status, 'completed'), eq(missionBatches.isSystem, false))!;
}

export interface AvailableLotsFilter {
  technicianId: string | null;
  department?: string | undefined;
  tag?: string | undefined;
  search?: string | undefined;
  limit: number;
  offset: number;
}

/**
 * One page of the lots open to applications, filtered in SQL; the aggregates (devices, models, candidates,
 * the technician's own application) are computed for that page only, never by loading every mission.
 */
export async function findAvailableLots(db: Db, filter: AvailableLotsFilter): Promise<{ items: AvailableLot[]; total: number }> {
  const conditions: SQL[] = [isOpenLot()];
  if (filter.department) conditions.push(arrayContains(missionBatches.departments, [filter.department]));
  if (filter.tag) conditions.push(arrayContains(missionBatches.tags, [filter.tag]));
  if (filter.search) {
    const pattern = likePattern(filter.search);
    conditions.push(
      or(
        ilike(missionBatches.title, pattern),
        ilike(missionBatches.description, pattern),
        sql`array_to_string(${missionBatches.tags}, ' ') ilike ${pattern}`,
      )!,
    );
  }
  const where = and(...conditions);

  // One statement: the page of lots (with the total of the filter, count over ()) in a subquery, then each lot's
  // figures from the indexed batch ids of that page only (docs/decisions/014: round trips are the cost).
  const page = db
    .select({
      total: windowTotal().as('total'),
      id: missionBatches.id,
      title: missionBatches.title,
      description: missionBatches.description,
      priceCents: missionBatches.priceCents,
      departments: missionBatches.departments,
      tags: missionBatches.tags,
      deadline: missionBatches.deadline,
      createdAt: missionBatches.createdAt,
    })
    .from(missionBatches)
    .where(where)
    .orderBy(desc(missionBatches.createdAt), asc(missionBatches.title), asc(missionBatches.id))
    .limit(filter.limit)
    .offset(filter.offset)
    .as('page');
  // Qualified by hand: inside the correlated subqueries a bare "id" would name the inner table's column.
  const figures = lotFigures(sql`"page"."id"`, filter.technicianId);
  const lots = await db
    .select({
      total: page.total,
      id: page.id,
      title: page.title,
      description: page.description,
      priceCents: page.priceCents,
      departments: page.departments,
      tags: page.tags,
      deadline: page.deadline,
      createdAt: page.createdAt,
      ...figures,
    })
    .from(page)
    .orderBy(desc(page.createdAt), asc(page.title), asc(page.id));

  const total = await pageTotal(lots, filter.offset, async () =>
    Number((await db.select({ n: count() }).from(missionBatches).where(where))[0]?.n ?? 0),
  );
  const items = lots.map(
    (lot): AvailableLot => ({
      id: lot.id,
      title: lot.title,
      description: lot.description?.trim() ? lot.description : DEFAULT_LOT_DESCRIPTION,
      price: centsToEuros(lot.priceCents),
      departments: lot.departments,
      tags: lot.tags,
      deadline: lot.deadline?.toISOString() ?? null,
      defibrillatorCount: lot.devices,
      candidateCount: lot.candidates,
      models: sortedModels(lot.models),
      missionDepartments: lot.missionDepartments ?? [],
      hasApplied: Boolean(lot.applied),
      isAssigned: Boolean(lot.assigned),
      createdAt: lot.createdAt.toISOString(),
    }),
  );
  return { items, total };
}

/**
 * A lot's figures as correlated subqueries on the indexed batch ids, for the outer query's lot `lotId` (an SQL
 * expression): devices, distinct models and departments of its missions; candidates, whether `technicianId` applied,
 * whether a technician is recruited. Lists of lots select what they show of it, in the same statement as their page.
 */
export function lotFigures(lotId: SQL, technicianId: string | null) {
  return {
    devices: sql<number>`(select count(*)::int from ${missions} where ${missions.batchId} = ${lotId})`.mapWith(Number),
    models: sql<string[] | null>`(select coalesce(array_agg(distinct ${missions.defibrillatorModel}) filter (where coalesce(${missions.defibrillatorModel}, '') <> ''), '{}') from ${missions} where ${missions.batchId} = ${lotId})`,
    missionDepartments: sql<string[] | null>`(select coalesce(array_agg(distinct ${missions.department}) filter (where coalesce(${missions.department}, '') <> ''), '{}') from ${missions} where ${missions.batchId} = ${lotId})`,
    candidates: sql<number>`(select count(*)::int from ${applications} where ${applications.batchId} = ${lotId})`.mapWith(Number),
    applied: technicianId
      ? sql<boolean>`exists (select 1 from ${applications} where ${applications.batchId} = ${lotId} and ${applications.technicianId} = ${technicianId})`
      : sql<boolean>`false`,
    assigned: sql<boolean>`exists (select 1 from ${applications} where ${applications.batchId} = ${lotId} and ${applications.status} in ('Recruté', 'Terminé'))`,
  };
}

/** A lot's models in French alphabetical order. */
export function sortedModels(models: readonly string[] | null): string[] {
  return [...(models ?? [])].sort((x, y) => x.localeCompare(y, 'fr'));
}

/** The departments and tags of the open lots, for the filters. */
export async function getAvailableLotFilters(db: Db): Promise<LotFilters> {
  const result = await db.execute<{ departments: string[] | null; tags: string[] | null }>(sql`
    select
      (select array_agg(distinct d order by d) from mission_batches b, unnest(b.departments) d
        where b.visibility = 'visible' and b.status <> 'completed' and not b.is_system) as departments,
      (select array_agg(distinct tg order by tg) from mission_batches b, unnest(b.tags) tg
        where b.visibility = 'visible' and b.status <> 'completed' and not b.is_system) as tags`);
  const row = result.rows[0];
  return { departments: row?.departments ?? [], tags: row?.tags ?? [] };
}
