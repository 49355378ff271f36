import { and, arrayContains, asc, count, desc, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import { DEFAULT_LOT_DESCRIPTION } from '@maillon/common/constants';
import { centsToEuros } from '@maillon/common/format';
import type { AvailableLot, LotFilters } from '@maillon/common/schemas/lots';
import type { Db } from '../../db/client';
import { applications, missionBatches, missions } from '../../db/schema';
import { likePattern } from '../../lib/pagination';

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
      total: sql<number>`count(*) over ()`.mapWith(Number).as('total'),
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
  const pageId = sql`"page"."id"`;
  const applied = filter.technicianId
    ? sql<boolean>`exists (select 1 from ${applications} where ${applications.batchId} = ${pageId} and ${applications.technicianId} = ${filter.technicianId})`
    : sql<boolean>`false`;
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
      devices: sql<number>`(select count(*)::int from ${missions} where ${missions.batchId} = ${pageId})`.mapWith(Number),
      models: sql<string[]>`(select coalesce(array_agg(distinct ${missions.defibrillatorModel}) filter (where coalesce(${missions.defibrillatorModel}, '') <> ''), '{}') from ${missions} where ${missions.batchId} = ${pageId})`,
      missionDepartments: sql<string[]>`(select coalesce(array_agg(distinct ${missions.department}) filter (where coalesce(${missions.department}, '') <> ''), '{}') from ${missions} where ${missions.batchId} = ${pageId})`,
      candidates: sql<number>`(select count(*)::int from ${applications} where ${applications.batchId} = ${pageId})`.mapWith(Number),
      applied,
      assigned: sql<boolean>`exists (select 1 from ${applications} where ${applications.batchId} = ${pageId} and ${applications.status} in ('Recruté', 'Terminé'))`,
    })
    .from(page)
    .orderBy(desc(page.createdAt), asc(page.title), asc(page.id));

  const total =
    lots[0]?.total ?? (filter.offset > 0 ? Number((await db.select({ n: count() }).from(missionBatches).where(where))[0]?.n ?? 0) : 0);
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
      models: [...(lot.models ?? [])].sort((x, y) => x.localeCompare(y, 'fr')),
      missionDepartments: lot.missionDepartments ?? [],
      hasApplied: Boolean(lot.applied),
      isAssigned: Boolean(lot.assigned),
      createdAt: lot.createdAt.toISOString(),
    }),
  );
  return { items, total };
}

export interface LotAggregates {
  missions: Map<string, { devices: number; models: string[]; departments: string[] }>;
  applications: Map<string, { candidates: number; applied: boolean; assigned: boolean }>;
}

/**
 * Figures derived from a page of lots, two grouped queries over the indexed batch ids: device count, distinct models and
 * departments of the missions; candidates, whether `technicianId` applied, whether a technician is recruited.
 */
export async function getLotAggregates(db: Db, { batchIds, technicianId }: { batchIds: string[]; technicianId: string | null }): Promise<LotAggregates> {
  const result: LotAggregates = { missions: new Map(), applications: new Map() };
  const ids = [...new Set(batchIds)];
  if (ids.length === 0) return result;
  const missionQuery = db
    .select({
      batchId: missions.batchId,
      devices: sql<number>`count(*)::int`,
      models: sql<string[]>`coalesce(array_agg(distinct ${missions.defibrillatorModel}) filter (where coalesce(${missions.defibrillatorModel}, '') <> ''), '{}')`,
      departments: sql<string[]>`coalesce(array_agg(distinct ${missions.department}) filter (where coalesce(${missions.department}, '') <> ''), '{}')`,
    })
    .from(missions)
    .where(inArray(missions.batchId, ids))
    .groupBy(missions.batchId);
  const applicationQuery = db
    .select({
      batchId: applications.batchId,
      candidates: sql<number>`count(*)::int`,
      applied: technicianId ? sql<boolean>`bool_or(${applications.technicianId} = ${technicianId})` : sql<boolean>`false`,
      assigned: sql<boolean>`bool_or(${applications.status} in ('Recruté', 'Terminé'))`,
    })
    .from(applications)
    .where(inArray(applications.batchId, ids))
    .groupBy(applications.batchId);
  // Two independent reads side by side (db is the pool here, never a transaction).
  const [missionRows, applicationRows] = await Promise.all([missionQuery, applicationQuery]);
  for (const row of missionRows) {
    if (!row.batchId) continue;
    result.missions.set(row.batchId, {
      devices: Number(row.devices),
      models: [...(row.models ?? [])].sort((x, y) => x.localeCompare(y, 'fr')),
      departments: row.departments ?? [],
    });
  }
  for (const row of applicationRows) {
    if (row.batchId) result.applications.set(row.batchId, { candidates: Number(row.candidates), applied: Boolean(row.applied), assigned: Boolean(row.assigned) });
  }
  return result;
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
