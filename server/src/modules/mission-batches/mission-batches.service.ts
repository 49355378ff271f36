import { and, arrayContains, asc, count, desc, eq, ilike, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import { DEFAULT_LOT_DESCRIPTION } from '@maillon/common/constants';
import { centsToEuros } from '@maillon/common/format';
import { MAP_LOTS_MAX, type AvailableLot, type AvailableLotsMap, type LotFilters, type LotSort } from '@maillon/common/schemas/lots';
import type { Db } from '../../db/client';
import { applications, missionBatches, missions, technicians } from '../../db/schema';
import { notFound } from '../../lib/app-error';
import { boundingSquare, EARTH_RADIUS_M, estimateRoundTrip, nearestDistance, type GeoPoint } from '../../lib/geo';
import { likePattern, pageTotal, windowTotal } from '../../lib/pagination';
import { technicianHomeColumns } from '../../lib/positions';
import { openLotsCountSql } from '../../lib/row-counts';

/** Lots a technician may see: visible, not completed, never the system lot (decisions.md §4). */
export function isOpenLot(): SQL {
  return and(eq(missionBatches.visibility, 'visible'), ne(missionBatches.status, 'completed'), eq(missionBatches.isSystem, false))!;
}

export interface AvailableLotsFilter {
  technicianId: string | null;
  /** The technician's stored home when the caller already has it (its session), sparing findHome's query. */
  knownHome?: GeoPoint | null | undefined;
  department?: string | undefined;
  tag?: string | undefined;
  search?: string | undefined;
  /** Only lots with a site within this many km of the technician's address (ignored when it is unknown). */
  radius?: number | undefined;
  /** Default: nearest first when the address is known, else the most recent. */
  sort?: LotSort | undefined;
  /** One lot only (the map's popup). */
  lotId?: string | undefined;
  limit: number;
  offset: number;
}

/**
 * The technician's home for distances: the coordinates stored with its address, else the address located now
 * (rows written before the coordinates were kept); null without a usable address (and for the admin).
 */
async function findHome(db: Db, technicianId: string | null, knownHome?: GeoPoint | null): Promise<GeoPoint | null> {
  if (!technicianId) return null;
  if (knownHome) return knownHome;
  const [row] = await db
    .select({ latitude: technicians.latitude, longitude: technicians.longitude, address: technicians.address, postalCode: technicians.postalCode, city: technicians.city })
    .from(technicians)
    .where(eq(technicians.id, technicianId))
    .limit(1);
  if (!row) return null;
  if (row.latitude !== null && row.longitude !== null) return { lat: row.latitude, lon: row.longitude };
  const home = technicianHomeColumns(row);
  return home.latitude !== null && home.longitude !== null ? { lat: home.latitude, lon: home.longitude } : null;
}

/** The filters every lot search shares (department, tag, free text), on mission_batches. */
function filterConditions(filter: Pick<AvailableLotsFilter, 'department' | 'tag' | 'search' | 'lotId'>): SQL[] {
  const conditions: SQL[] = [];
  if (filter.lotId) conditions.push(eq(missionBatches.id, filter.lotId));
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
  return conditions;
}

/**
 * The open-lot rule written with literals, so the planner matches the partial index mission_batches_geo_box_idx
 * (same rule as isOpenLot), for lots with at least one located site.
 */
const openLot = sql`${missionBatches.visibility} = 'visible' and ${missionBatches.status} <> 'completed' and not ${missionBatches.isSystem}`;
const openLocatedLot = sql`${openLot} and ${missionBatches.geoSiteCount} > 0`;

/**
 * Km as the crow flies from `home` to the lot's nearest site: the haversine of geo.ts over the lot's site arrays, with
 * sin²(x/2) written (1 − cos x)/2 and the arc sine taken once, on the smallest term (same order, fewer calls per site).
 */
function nearestSiteKmExpression(home: GeoPoint): SQL<number | null> {
  const earthKm = EARTH_RADIUS_M / 1000;
  const rad = Math.PI / 180;
  const cosLat = Math.cos(home.lat * rad);
  const term = sql`(1 - cos((s.lat - ${home.lat}::float8) * ${rad}::float8)) / 2 + ${cosLat}::float8 * cos(s.lat * ${rad}::float8) * (1 - cos((s.lon - ${home.lon}::float8) * ${rad}::float8)) / 2`;
  // least/greatest skip nulls: a lot without a site must keep a null distance.
  return sql<number | null>`case when count(*) = 0 then null else ${2 * earthKm}::float8 * asin(sqrt(least(1, greatest(0, min(${term}))))) end`;
}
const siteArrays = sql`unnest(${missionBatches.geoSiteLats}, ${missionBatches.geoSiteLons}) as s(lat, lon)`;

/** As a scalar subquery on the current lot row. */
function nearestSiteKmSql(home: GeoPoint): SQL<number | null> {
  return sql<number | null>`(select ${nearestSiteKmExpression(home)} from ${siteArrays})`;
}

/**
 * As a lateral subquery `nearest(km)` joined to each lot: an aggregate, so the planner keeps it apart and computes it
 * once per lot for the filter, the order and the answer.
 */
function nearestSiteLateral(db: Db, home: GeoPoint) {
  return db.select({ km: sql<number | null>`${nearestSiteKmExpression(home)}`.as('km') }).from(siteArrays).as('nearest');
}

/** The lots' box meets the square around `home` holding the radius: the index-friendly pre-filter of a ring. */
function meetsSquare(home: GeoPoint, radiusKm: number): SQL {
  const square = boundingSquare(home, radiusKm);
  return sql`box(point(${missionBatches.geoMinLon}, ${missionBatches.geoMinLat}), point(${missionBatches.geoMaxLon}, ${missionBatches.geoMaxLat})) && box(point(${square.west}::float8, ${square.south}::float8), point(${square.east}::float8, ${square.north}::float8))`;
}

/**
 * Rings of the nearest-first search without a radius: each is tried until it holds the whole page (then no lot outside
 * it can come before the page's last), then every open lot, those without a position last.
 */
const NEAREST_RINGS_KM = [5, 15, 50, 150, 500];

const lotColumns = {
  id: missionBatches.id,
  title: missionBatches.title,
  description: missionBatches.description,
  priceCents: missionBatches.priceCents,
  departments: missionBatches.departments,
  tags: missionBatches.tags,
  deadline: missionBatches.deadline,
  createdAt: missionBatches.createdAt,
  siteCount: missionBatches.geoSiteCount,
  approximateCount: missionBatches.geoApproximateCount,
  geoLat: missionBatches.geoLat,
  geoLon: missionBatches.geoLon,
  siteLats: missionBatches.geoSiteLats,
  siteLons: missionBatches.geoSiteLons,
};

/**
 * One page of the lots open to applications, filtered in SQL; the aggregates (devices, models, candidates,
 * the technician's own application) are computed for that page only, never by loading every mission.
 * With the technician's address known, each lot carries its distance and estimated round trip, and the default order is
 * nearest first (docs/decisions/025): a radius, or rings of growing radius, pre-filter the lots by their bounding box
 * (GiST index) before the exact distance to their nearest site is computed.
 */
export async function findAvailableLots(db: Db, filter: AvailableLotsFilter): Promise<{ items: AvailableLot[]; total: number }> {
  const home = await findHome(db, filter.technicianId, filter.knownHome);
  const sort: LotSort = home ? (filter.sort ?? 'nearest') : 'recent';
  const radius = home ? filter.radius : undefined;
  if (sort === 'nearest' || radius) {
    // A department holds a small share of the lots (its GIN index finds them): their distances at once cost less than
    // rings around a home that is mostly elsewhere, which would each come back short of a page.
    const rings = radius ? [radius] : sort === 'nearest' && !filter.department ? [...NEAREST_RINGS_KM, null] : [null];
    for (const ring of rings) {
      const { page, ringTotal } = await findLotsByDistance(db, filter, home!, { ring, radius, sort });
      if (page) return page;
      // An empty ring: the lots of this search are far away (or few), every lot at once is the cheaper next step.
      if (ringTotal === 0 && ring !== null) return (await findLotsByDistance(db, filter, home!, { ring: null, radius, sort })).page!;
    }
  }
  return findRecentLots(db, filter, home);
}

/**
 * One query: the open lots within `ring` km of home (all of them when null), with their distance, the page in the
 * wanted order and the number within the ring; null when the ring holds fewer lots than the end of the page.
 */
async function findLotsByDistance(
  db: Db,
  filter: AvailableLotsFilter,
  home: GeoPoint,
  { ring, radius, sort }: { ring: number | null; radius: number | undefined; sort: LotSort },
): Promise<{ page: { items: AvailableLot[]; total: number } | null; ringTotal: number }> {
  const nearest = nearestSiteLateral(db, home);
  const conditions = filterConditions(filter);
  // Without a radius the last pass lists every open lot: those without a position too, last.
  const everyLot = ring === null && !radius;
  const candidates = db
    .select({ ...lotColumns, distanceKm: sql<number | null>`${nearest.km}`.as('distance_km') })
    .from(missionBatches)
    .crossJoinLateral(nearest)
    .where(
      and(
        everyLot ? openLot : openLocatedLot,
        ...(ring !== null ? [meetsSquare(home, ring), lte(nearest.km, ring)] : []),
        ...conditions,
      ),
    )
    .as('candidates');
  const order = sort === 'nearest'
    ? [sql`${candidates.distanceKm} asc nulls last`, desc(candidates.createdAt), asc(candidates.id)]
    : [desc(candidates.createdAt), asc(candidates.title), asc(candidates.id)];
  const page = db
    .select({
      ringTotal: windowTotal().as('ring_total'),
      ...Object.fromEntries(Object.keys(lotColumns).map((key) => [key, candidates[key as keyof typeof lotColumns]])) as { [K in keyof typeof lotColumns]: (typeof candidates)[K] },
      distanceKm: candidates.distanceKm,
    })
    .from(candidates)
    .orderBy(...order)
    .limit(filter.limit)
    .offset(filter.offset)
    .as('page');
  const rows = await db
    .select({
      ...Object.fromEntries(Object.keys(lotColumns).map((key) => [key, page[key as keyof typeof lotColumns]])) as { [K in keyof typeof lotColumns]: (typeof page)[K] },
      ringTotal: page.ringTotal,
      distanceKm: page.distanceKm,
      // Without a radius the total is every open lot of the filters, wherever it is (one count, beside the page); the
      // last pass's window total already is that count.
      allTotal: radius || everyLot ? sql<number>`0` : openLotsTotal(conditions),
      ...lotFigures(sql`"page"."id"`, filter.technicianId),
    })
    .from(page)
    .orderBy(...(sort === 'nearest' ? [sql`${page.distanceKm} asc nulls last`, desc(page.createdAt), asc(page.id)] : [desc(page.createdAt), asc(page.title), asc(page.id)]));

  const ringTotal = rows[0]?.ringTotal ?? 0;
  if (ring !== null && !radius && ringTotal < filter.offset + filter.limit) {
    // Not enough lots within this ring for the page: a wider ring (or every lot) decides.
    return { page: null, ringTotal };
  }
  let total: number;
  if (radius) {
    total = rows[0]?.ringTotal ?? (filter.offset > 0 ? await countWithinRadius(db, filter, home, radius) : 0);
  } else {
    const first = rows[0];
    total = first ? (everyLot ? first.ringTotal : first.allTotal) : await countOpenLots(db, conditions);
  }
  return { page: { items: rows.map((row) => toAvailableLot(row, home)), total }, ringTotal };
}

/**
 * The total of open lots for the filters: without a filter, the count the database keeps (row_counts, decision 027);
 * with one, a count over the open lots' partial index.
 */
function openLotsTotal(conditions: SQL[]): SQL<number> {
  if (!conditions.length) return openLotsCountSql();
  return sql<number>`(select count(*) from ${missionBatches} where ${and(openLot, ...conditions)})`.mapWith(Number);
}

/** The same total on its own (a page past the end carries none). */
async function countOpenLots(db: Db, conditions: SQL[]): Promise<number> {
  return Number((await db.select({ n: count() }).from(missionBatches).where(and(openLot, ...conditions)))[0]?.n ?? 0);
}

async function countWithinRadius(db: Db, filter: AvailableLotsFilter, home: GeoPoint, radius: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(missionBatches)
    .where(and(openLocatedLot, meetsSquare(home, radius), lte(nearestSiteKmSql(home), radius), ...filterConditions(filter)));
  return Number(row?.n ?? 0);
}

/** The most recent lots first (no address, or « Les plus récents » without a radius); distances for the page only. */
async function findRecentLots(db: Db, filter: AvailableLotsFilter, home: GeoPoint | null): Promise<{ items: AvailableLot[]; total: number }> {
  const conditions = filterConditions(filter);
  const where = and(openLot, ...conditions);

  // One statement: the page of lots in a subquery (walking mission_batches_open_idx, most recent first), then each
  // lot's figures from the indexed batch ids of that page only, and the total of the filter counted on the same
  // partial index (docs/decisions/014: round trips are the cost; 018: a window total would read every open lot).
  const page = db
    .select(lotColumns)
    .from(missionBatches)
    .where(where)
    .orderBy(desc(missionBatches.createdAt), asc(missionBatches.title), asc(missionBatches.id))
    .limit(filter.limit)
    .offset(filter.offset)
    .as('page');
  // Qualified by hand: inside the correlated subqueries a bare "id" would name the inner table's column.
  const figures = lotFigures(sql`"page"."id"`, filter.technicianId);
  const countAll = () => countOpenLots(db, conditions);
  const lots = await db
    .select({
      total: openLotsTotal(conditions),
      ...Object.fromEntries(Object.keys(lotColumns).map((key) => [key, page[key as keyof typeof lotColumns]])) as { [K in keyof typeof lotColumns]: (typeof page)[K] },
      ...figures,
    })
    .from(page)
    .orderBy(desc(page.createdAt), asc(page.title), asc(page.id));

  const total = await pageTotal(lots, filter.offset, countAll);
  return { items: lots.map((lot) => toAvailableLot(lot, home)), total };
}

interface LotRow {
  id: string;
  title: string;
  description: string | null;
  priceCents: number;
  departments: string[];
  tags: string[];
  deadline: Date | null;
  createdAt: Date;
  siteCount: number;
  approximateCount: number;
  geoLat: number | null;
  geoLon: number | null;
  siteLats: number[];
  siteLons: number[];
  devices: number;
  models: string[] | null;
  missionDepartments: string[] | null;
  candidates: number;
  applied: boolean;
  assigned: boolean;
}

function toAvailableLot(lot: LotRow, home: GeoPoint | null): AvailableLot {
  const sites = lot.siteLats.map((lat, i) => ({ lat, lon: lot.siteLons[i]! }));
  const roundTrip = home ? estimateRoundTrip(home, sites) : null;
  return {
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
    distance: home ? nearestDistance(home, sites) : null,
    roundTrip: roundTrip ? { distance: roundTrip.distance, duration: roundTrip.duration } : null,
    position:
      lot.siteCount > 0 && lot.geoLat !== null && lot.geoLon !== null
        ? { lat: lot.geoLat, lon: lot.geoLon, approximate: lot.approximateCount >= lot.siteCount }
        : null,
  };
}

/** One open lot as the technician sees it (the map's popup); 404 when it is not open to applications. */
export async function getAvailableLot(db: Db, { lotId, technicianId }: { lotId: string; technicianId: string | null }): Promise<AvailableLot> {
  const page = await findAvailableLots(db, { technicianId, lotId, sort: 'recent', limit: 1, offset: 0 });
  const lot = page.items[0];
  if (!lot) throw notFound('Lot introuvable');
  return lot;
}

/**
 * The lots' map: one marker per open lot of the filters at the mean point of its sites, nearest to the technician's
 * address first (by that point), at most MAP_LOTS_MAX; with the number of lots that cannot be placed.
 */
export async function getAvailableLotsMap(db: Db, filter: Omit<AvailableLotsFilter, 'limit' | 'offset' | 'sort' | 'lotId'>): Promise<AvailableLotsMap> {
  const home = await findHome(db, filter.technicianId, filter.knownHome);
  const conditions = filterConditions(filter);
  const radius = home ? filter.radius : undefined;
  const located = and(openLocatedLot, ...(radius && home ? [meetsSquare(home, radius), lte(nearestSiteKmSql(home), radius)] : []), ...conditions);
  const order = home
    ? [sql`power(${missionBatches.geoLat} - ${home.lat}::float8, 2) + power((${missionBatches.geoLon} - ${home.lon}::float8) * ${Math.cos((home.lat * Math.PI) / 180)}::float8, 2)`, asc(missionBatches.id)]
    : [desc(missionBatches.createdAt), asc(missionBatches.id)];
  const [rows, unlocated] = await Promise.all([
    db
      .select({
        total: windowTotal(),
        id: missionBatches.id,
        title: missionBatches.title,
        lat: missionBatches.geoLat,
        lon: missionBatches.geoLon,
        siteCount: missionBatches.geoSiteCount,
        approximateCount: missionBatches.geoApproximateCount,
      })
      .from(missionBatches)
      .where(located)
      .orderBy(...order)
      .limit(MAP_LOTS_MAX),
    radius
      ? Promise.resolve(0)
      : db
          .select({ n: count() })
          .from(missionBatches)
          .where(and(openLot, eq(missionBatches.geoSiteCount, 0), ...conditions))
          .then((r) => Number(r[0]?.n ?? 0)),
  ]);
  return {
    home,
    lots: rows.map((r) => ({ id: r.id, title: r.title, lat: r.lat!, lon: r.lon!, approximate: r.approximateCount >= r.siteCount })),
    total: rows[0]?.total ?? 0,
    unlocated,
  };
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
