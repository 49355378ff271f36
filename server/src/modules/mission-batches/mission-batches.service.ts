import { and, eq, ne, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { MAP_LOTS_MAX, type AvailableLot, type LotFilters, type LotSort } from '@maillon/common/schemas/lots';
import type { Db } from '../../db/client';
import { missionBatches, technicians } from '../../db/schema';
import { notFound } from '../../lib/app-error';
import { EARTH_RADIUS_M, lotTripFromHome, type GeoPoint } from '../../lib/geo';
import { likePattern, pageShape, pageSql, PART_SEPARATOR, ROW_SEPARATOR, whereAll } from '../../lib/pagination';
import { preparedSql } from '../../db/prepared-queries';
import { technicianHomeColumns } from '../../lib/positions';
import { openLotFiltersSql, openLotsCountSql, openLotsInDepartmentCountSql } from '../../lib/row-counts';

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

type LotSearch = Pick<AvailableLotsFilter, 'department' | 'tag' | 'search'>;

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

/**
 * The values of a lot search's statements. The statements below are written with `bind(name)`, placeholders
 * (`sql.placeholder`) rendered once per shape by preparedSql and given these values on each call (docs/decisions/032).
 */
type LotValues = {
  department?: string | undefined;
  tag?: string | undefined;
  /** The free text as an ILIKE pattern. */
  pattern?: string | undefined;
  /** Home's point on the unit sphere, as `cube` text. */
  point?: string | undefined;
  /** The radius as a chord of the unit sphere. */
  chord?: number | undefined;
  technicianId?: string | null | undefined;
  lotId?: string | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
};
type Bind = (name: keyof LotValues) => unknown;
const placeholders: Bind = (name) => sql.placeholder(name);

/**
 * Home's point on the unit sphere, as lot_sites keeps its sites (maillon_unit_point, migration 0017), computed here and
 * sent as one `cube` parameter: PostgreSQL reads it once when the statement is bound, instead of evaluating the function
 * (a materialized CTE) on every call. Ordering by chord is still ordering by distance; sites at one point stay tied.
 */
function unitPointText(home: GeoPoint): string {
  const rad = Math.PI / 180;
  const cosLat = Math.cos(home.lat * rad);
  return `(${cosLat * Math.cos(home.lon * rad)}, ${cosLat * Math.sin(home.lon * rad)}, ${Math.sin(home.lat * rad)})`;
}

/** The values of a search: its filters, home's point, the radius, the technician, the page. */
function lotValues(filter: AvailableLotsFilter, home: GeoPoint | null): LotValues {
  return {
    department: filter.department,
    tag: filter.tag,
    pattern: filter.search ? likePattern(filter.search) : undefined,
    point: home ? unitPointText(home) : undefined,
    chord: filter.radius ? chordOfKm(filter.radius) : undefined,
    technicianId: filter.technicianId,
    lotId: filter.lotId,
    limit: filter.limit,
    offset: filter.offset,
  };
}

/** What changes the text of a search's statements: which filters are present. */
const searchShape = (filter: LotSearch & Pick<AvailableLotsFilter, 'lotId' | 'technicianId'>) =>
  `${filter.department ? 'd' : ''}${filter.tag ? 't' : ''}${filter.search ? 's' : ''}${filter.lotId ? 'l' : ''}${filter.technicianId ? 'a' : ''}`;

/** The same filters written on `mission_batches b`, for the statements written in SQL below. */
function lotConditionsSql(filter: LotSearch, bind: Bind): SQL[] {
  const conditions: SQL[] = [];
  if (filter.department) conditions.push(sql`b.departments @> array[${bind('department')}]::text[]`);
  if (filter.tag) conditions.push(sql`b.tags @> array[${bind('tag')}]::text[]`);
  if (filter.search) {
    const pattern = bind('pattern');
    conditions.push(sql`(b.title ilike ${pattern} or b.description ilike ${pattern} or array_to_string(b.tags, ' ') ilike ${pattern})`);
  }
  return conditions;
}

/**
 * The sites of a search in lot_sites, which holds the open lots' sites only, one row per department of their lot: the
 * department through the (department, site) index, the tag and the free text through the lot.
 */
function siteConditionsSql(filter: LotSearch, bind: Bind): SQL[] {
  const conditions: SQL[] = [];
  if (filter.department) conditions.push(sql`s.department = ${bind('department')}`);
  const lot = lotConditionsSql({ tag: filter.tag, search: filter.search }, bind);
  if (lot.length) conditions.push(sql`s.batch_id in (select b.id from mission_batches b where ${sql.join(lot, sql` and `)})`);
  return conditions;
}

/** The chord of the unit sphere between two points `km` apart: lot_sites compares distances as chords. */
function chordOfKm(km: number): number {
  return 2 * Math.sin(Math.min(Math.PI / 2, km / (2 * (EARTH_RADIUS_M / 1000))));
}

/**
 * The lots of a search with a site within the radius of home (`chord`), each with its nearest chord: the sites inside
 * the cube around home that holds the radius (GiST), then those within it.
 */
function lotsWithinRadiusSql(filter: LotSearch, bind: Bind): SQL {
  const point = sql`${bind('point')}::cube`;
  const chord = sql`${bind('chord')}::float8`;
  const conditions = [...siteConditionsSql(filter, bind), sql`s.site <@ cube_enlarge(${point}, ${chord}, 3)`];
  return sql`
    select batch_id, min(chord) as chord from (
      select s.batch_id, s.site <-> ${point} as chord from lot_sites s ${whereAll(conditions)}
    ) near
    where chord <= ${chord}
    group by batch_id`;
}

/**
 * What a list shows of a lot `b`, in four parts: the JSON the lot keeps in `list_json` (written by a trigger from its
 * own row, migrations 0020 and 0022, docs/decisions/033), its sites' coordinates (`list_sites`), its models (JSON) and
 * whether the technician applied to it (false for the admin); pageJson completes them.
 */
function lotPartsSql(forTechnician: boolean, bind: Bind): SQL {
  const applied = forTechnician
    ? sql`exists (select 1 from applications a where a.batch_id = b.id and a.technician_id = ${bind('technicianId')})`
    : sql`false`;
  return sql`b.list_json || chr(31) || b.list_sites || chr(31) || array_to_json(b.mission_models)::text || chr(31) || (${applied})::text`;
}

/** A page of lots `b` in `order` as one text (empty without a lot): each lot's parts, the lots joined by chr(30). */
const pageJsonSql = (order: SQL, forTechnician: boolean, bind: Bind) =>
  sql`coalesce(string_agg(${lotPartsSql(forTechnician, bind)}, chr(30) order by ${order}), '')`;

/** A page of lots as the statements below answer it: the lots in order, their total, and how it was read. */
type LotPageRow = {
  total: number;
  /** The page's lots as pageJsonSql joins them. */
  lots: string;
};

/** A page of « Trouver des missions »: the JSON text of its AvailableLot array, as sent, and the total of the search. */
export interface AvailableLotsPage {
  json: string;
  total: number;
}

/**
 * The total of a search over the open lots `b`: the kept counts without a filter or with a department alone (027, 030),
 * else a count with `conditions` (lotConditionsSql of the same search, plus the lot of a map popup).
 */
function openLotsTotalSql(filter: LotSearch & Pick<AvailableLotsFilter, 'lotId'>, conditions: SQL[], bind: Bind): SQL {
  if (!conditions.length) return sql`(${openLotsCountSql()})::int`;
  if (filter.department && conditions.length === 1) return sql`${openLotsInDepartmentCountSql(bind('department') as string | Placeholder)}`;
  return sql`(select count(*)::int from mission_batches b where b.visibility = 'visible' and b.status <> 'completed' and not b.is_system and ${sql.join(conditions, sql` and `)})`;
}

/** Sites read at first for a page ending at lot `end` (a lot has a few, and its nearest comes first), at least 64. */
const FIRST_SITES_PER_LOT = 4;
export const FIRST_SITES_MIN = 64;
/** Each new reading of a nearest-first page reads this many times more sites. */
const SITES_GROWTH = 8;

/**
 * One page of the lots open to applications, filtered in SQL, with the figures each lot keeps (docs/decisions/030).
 * With the technician's address known, each lot carries its distance and estimated round trip, and the default order is
 * nearest first (docs/decisions/025): the lots' sites are walked in order of distance in the GiST index of lot_sites.
 * Each statement is rendered once per shape (docs/decisions/032).
 */
export async function findAvailableLots(db: Db, filter: AvailableLotsFilter): Promise<AvailableLotsPage> {
  const home = await findHome(db, filter.technicianId, filter.knownHome);
  const sort: LotSort = home ? (filter.sort ?? 'nearest') : 'recent';
  if (home && filter.radius) return findLotsWithinRadius(db, filter, home, sort);
  if (home && sort === 'nearest' && !filter.lotId) return findNearestLots(db, filter, home);
  return findRecentLots(db, filter, home);
}

/**
 * A page's lots as the technician sees them: each lot's JSON as the database keeps it, completed with what depends on
 * the reader (distance and round trip from home, whether they applied) and its models in French order, joined into
 * the JSON array the route sends as it is. Only the sites and the models are parsed (docs/decisions/033).
 */
function pageJson(lots: string, home: GeoPoint | null): string {
  if (!lots) return '[]';
  const items = lots.split(ROW_SEPARATOR).map((lot) => {
    const [card, sites, models, applied] = lot.split(PART_SEPARATOR) as [string, string, string, string];
    const [lats, lons] = JSON.parse(sites) as [number[], number[]];
    const trip = home ? lotTripFromHome(home, lats, lons) : null;
    const reader = trip
      ? `"distance":${trip.nearest},"roundTrip":{"distance":${trip.roundTrip.distance},"duration":${trip.roundTrip.duration}}`
      : '"distance":null,"roundTrip":null';
    return `{${reader},"hasApplied":${applied},"models":${JSON.stringify(sortedModels(JSON.parse(models) as string[]))},${card.slice(1)}`;
  });
  return `[${items.join(',')}]`;
}

const pageOf = (row: LotPageRow, home: GeoPoint | null): AvailableLotsPage => ({ json: pageJson(row.lots, home), total: row.total });

/**
 * Nearest first, without a radius. The first sites of the search in order of distance (GiST KNN on lot_sites), with
 * every site as far as the last one (`with ties`: many lots at one address, or at the same approximate point), bring
 * their lots in order, each at its nearest site: every site up to that distance has been read, so every lot seen is in
 * its final place. When the page needs more lots than that (lots with many sites near home), the statement runs again
 * and reads eight times more sites, until it has read them all; the lots without a located site then follow, most
 * recent first. The total is every open lot of the search (the kept count without a filter).
 */
async function findNearestLots(db: Db, filter: AvailableLotsFilter, home: GeoPoint): Promise<AvailableLotsPage> {
  const end = filter.offset + filter.limit;
  const values = lotValues(filter, home);
  for (let sites = Math.max(FIRST_SITES_MIN, FIRST_SITES_PER_LOT * end); ; sites *= SITES_GROWTH) {
    const statement = preparedSql<LotPageRow & { sitesRead: number; complete: number }>(db, `lots nearest ${searchShape(filter)} ${sites}`, () =>
      nearestLotsSql(filter, sites, placeholders),
    );
    const meta = (await statement.execute(values)).rows[0]!;
    if (meta.sitesRead < sites || meta.complete >= end) return pageOf(meta, home);
  }
}

/** The statement of findNearestLots reading the first `sites` sites (a literal: PostgreSQL keeps one generic plan). */
function nearestLotsSql(filter: AvailableLotsFilter, sites: number, bind: Bind): SQL {
  const lotConditions = lotConditionsSql(filter, bind);
  const total = openLotsTotalSql(filter, lotConditions, bind);
  const unlocated = [sql`b.visibility = 'visible' and b.status <> 'completed' and not b.is_system and b.geo_site_count = 0`, ...lotConditions];
  const point = sql`${bind('point')}::cube`;
  const order = sql`p.chord asc nulls last, p.created_at desc, p.batch_id`;
  return sql`
      with near as (
        select s.batch_id, s.created_at, s.site <-> ${point} as chord
        from lot_sites s ${whereAll(siteConditionsSql(filter, bind))}
        order by s.site <-> ${point}
        fetch first ${sql.raw(String(sites))} rows with ties
      ),
      lots as (select batch_id, created_at, min(chord) as chord from near group by batch_id, created_at),
      edge as (select count(*)::int as n from near),
      ranked as (
        select batch_id, chord, created_at from lots
        union all
        select b.id, null, b.created_at from mission_batches b ${whereAll(unlocated)} and (select n from edge) < ${sql.raw(String(sites))}
      ),
      page as (
        select batch_id, chord, created_at from ranked
        order by chord asc nulls last, created_at desc, batch_id
        limit ${bind('limit')} offset ${bind('offset')}
      )
      select e.n as "sitesRead", (select count(*)::int from lots) as complete, ${total} as total,
        (select ${pageJsonSql(order, Boolean(filter.technicianId), bind)}
          from page p join mission_batches b on b.id = p.batch_id) as lots
      from edge e`;
}

/** The lots with a site within the radius of home, nearest or most recent first, with their number (one statement). */
async function findLotsWithinRadius(db: Db, filter: AvailableLotsFilter, home: GeoPoint, sort: LotSort): Promise<AvailableLotsPage> {
  const statement = preparedSql<LotPageRow>(db, `lots within ${sort} ${searchShape(filter)} ${pageShape(filter)}`, () => {
    const order = sort === 'nearest' ? sql`w.chord, b.created_at desc, b.id` : sql`b.created_at desc, b.title, b.id`;
    return sql`
      with within as (${lotsWithinRadiusSql(filter, placeholders)}),
      page as (
        select w.chord, b.* from within w join mission_batches b on b.id = w.batch_id
        order by ${order} ${pageSql(filter.limit, filter.offset, placeholders('offset'))}
      )
      select (select count(*)::int from within) as total,
        (select ${pageJsonSql(sort === 'nearest' ? sql`b.chord, b.created_at desc, b.id` : sql`b.created_at desc, b.title, b.id`, Boolean(filter.technicianId), placeholders)} from page b) as lots`;
  });
  return pageOf((await statement.execute(lotValues(filter, home))).rows[0]!, home);
}

/** The most recent lots first (no address, « Les plus récents », one lot); distances for the page only. */
async function findRecentLots(db: Db, filter: AvailableLotsFilter, home: GeoPoint | null): Promise<AvailableLotsPage> {
  // One statement: the page walking mission_batches_open_idx (most recent first) with the figures each lot keeps, and
  // the total of the search from the kept counts, or counted on the same partial index (decision 014: round trips cost).
  // Its LIMIT a literal and its OFFSET only past the first page (pageSql, the page in the shape): with LIMIT a parameter
  // PostgreSQL planned it on every call, 0.29 ms of planning for 0.34 ms of execution (decision 067).
  const statement = preparedSql<LotPageRow>(db, `lots recent ${searchShape(filter)} ${pageShape(filter)}`, () => {
    const conditions = [...lotConditionsSql(filter, placeholders), ...(filter.lotId ? [sql`b.id = ${placeholders('lotId')}`] : [])];
    const open = sql`b.visibility = 'visible' and b.status <> 'completed' and not b.is_system`;
    const where = sql.join([open, ...conditions], sql` and `);
    return sql`
      select ${openLotsTotalSql(filter, conditions, placeholders)} as total,
        (select ${pageJsonSql(sql`b.created_at desc, b.title, b.id`, Boolean(filter.technicianId), placeholders)} from (
          select * from mission_batches b where ${where} order by b.created_at desc, b.title, b.id ${pageSql(filter.limit, filter.offset, placeholders('offset'))}
        ) b) as lots`;
  });
  return pageOf((await statement.execute(lotValues(filter, home))).rows[0]!, home);
}

/** One open lot as the technician sees it (the map's popup); 404 when it is not open to applications. */
export async function getAvailableLot(db: Db, { lotId, technicianId }: { lotId: string; technicianId: string | null }): Promise<AvailableLot> {
  const page = await findAvailableLots(db, { technicianId, lotId, sort: 'recent', limit: 1, offset: 0 });
  const lot = (JSON.parse(page.json) as AvailableLot[])[0];
  if (!lot) throw notFound('Lot introuvable');
  return lot;
}

/**
 * The lots' map: one marker per open lot of the filters at the mean point of its sites, nearest to the technician's
 * address first, else the most recent first, at most MAP_LOTS_MAX; with the number of lots it places and of those it
 * cannot place. The markers are those lot_markers keeps, written as JSON by the database: nearest first they are read
 * from its GiST index alone, in order of distance (KNN), and sent as they are, in one statement rendered once per shape
 * (decision 036).
 */
export async function getAvailableLotsMapJson(db: Db, filter: Omit<AvailableLotsFilter, 'limit' | 'offset' | 'sort' | 'lotId'>): Promise<string> {
  const home = await findHome(db, filter.technicianId, filter.knownHome);
  const radius = home ? filter.radius : undefined;
  const search: LotSearch = { department: filter.department, tag: filter.tag, search: filter.search };
  const shape = `lots map ${searchShape({ ...search, technicianId: null })}${home ? ' home' : ''}${radius ? ' radius' : ''}`;
  const statement = preparedSql<{ total: number; unlocated: number; markers: string }>(db, shape, () => lotsMapSql(search, Boolean(home), Boolean(radius)));
  const row = (await statement.execute(lotValues({ ...filter, ...search, radius, limit: MAP_LOTS_MAX, offset: 0 }, home))).rows[0]!;
  return `{"home":${JSON.stringify(home)},"lots":[${row.markers}],"total":${Number(row.total)},"unlocated":${Number(row.unlocated)}}`;
}

/** The statement of getAvailableLotsMapJson for one shape: which filters, whether home is known, whether a radius applies. */
function lotsMapSql(filter: LotSearch, hasHome: boolean, hasRadius: boolean): SQL {
  const lotConditions = lotConditionsSql(filter, placeholders);
  const markerConditions: SQL[] = [];
  if (filter.department) markerConditions.push(sql`m.departments @> array[${placeholders('department')}]::text[]`);
  if (filter.tag) markerConditions.push(sql`m.tags @> array[${placeholders('tag')}]::text[]`);
  if (filter.search) markerConditions.push(sql`m.batch_id in (select b.id from mission_batches b where ${lotConditionsSql({ search: filter.search }, placeholders)[0]!})`);
  const within = hasRadius ? sql`with within as (${lotsWithinRadiusSql(filter, placeholders)})` : sql``;
  if (hasRadius) markerConditions.push(sql`m.batch_id in (select batch_id from within)`);
  const unlocated = sql.join([sql`b.visibility = 'visible' and b.status <> 'completed' and not b.is_system and b.geo_site_count = 0`, ...lotConditions], sql` and `);
  // Within a radius every lot has a site; else the placed lots are those of the search but the ones without a site
  // (each count read once, in `counts`: `offset 0` keeps PostgreSQL from merging it into the statement, which counted
  // the lots without a site twice, decision 074).
  const searched = hasRadius ? sql`(select count(*)::int from within)` : openLotsTotalSql(filter, lotConditions, placeholders);
  const unlocatedCount = hasRadius ? sql`0` : sql`(select count(*)::int from mission_batches b where ${unlocated})`;
  const walkOrder = hasHome ? sql`m.point <-> ${placeholders('point')}::cube` : sql`m.created_at desc, m.batch_id`;
  // One row: the counts, and the markers joined by the database. Joined there, not sent as 500 rows: Node then reads
  // one text instead of 500 rows (decision 043). Joined from an array of the walk, which keeps the walk's order: a
  // `string_agg(… order by …)` sorted again the markers the walk had read in that order (0.97–1.01 → 0.85–0.92 ms a
  // statement at full scale, decision 076).
  return sql`
    ${within}
    select counts.searched - counts.unlocated as total, counts.unlocated,
      array_to_string(array(
        select m.marker from lot_markers m ${whereAll(markerConditions)} order by ${walkOrder} limit ${sql.raw(String(MAP_LOTS_MAX))}
      ), ',') as markers
    from (select ${searched} as searched, ${unlocatedCount} as unlocated offset 0) counts`;
}

/** French alphabetical order, as `localeCompare(…, 'fr')` (one collator for every call). */
export const frenchOrder = new Intl.Collator('fr').compare;

/** A lot's models in French alphabetical order. */
export function sortedModels(models: readonly string[] | null): string[] {
  return [...(models ?? [])].sort(frenchOrder);
}

/** The departments and tags of the open lots, for the filters: the keys kept in row_counts (decision 036). */
export async function getAvailableLotFilters(db: Db): Promise<LotFilters> {
  const result = await preparedSql<{ departments: string[]; tags: string[] }>(db, 'lot filters', openLotFiltersSql).execute();
  const row = result.rows[0];
  return { departments: row?.departments ?? [], tags: row?.tags ?? [] };
}
