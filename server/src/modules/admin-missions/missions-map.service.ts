import { sql, type SQL } from 'drizzle-orm';
import type { MissionStatus } from '@maillon/common/enums';
import { MAP_GROUPS_ABOVE, MAP_MISSIONS_MAX, type MissionsMap, type MissionsMapQuery } from '@maillon/common/schemas/admin-missions';
import type { Db } from '../../db/client';
import { preparedSql } from '../../db/prepared-queries';
import { dependsOn } from '../../lib/change-tracker';
import { frenchOrder } from '../mission-batches/mission-batches.service';

/** One row of the map's statement: a mission (with its lot for the legend), or none when nothing is placed. */
interface MapRow extends Record<string, unknown> {
  unlocated: number;
  id: string | null;
  title: string;
  lat: number;
  lon: number;
  approximate: boolean;
  batch_id: string | null;
  status: MissionStatus;
  batch_title: string | null;
  defibrillators_sum: number | null;
}

/** Read one more than shown: its presence says the view holds more. */
const ROWS = MAP_MISSIONS_MAX + 1;
const p = (name: string) => sql.placeholder(name);

const site = sql`coalesce(m.latitude, m.approx_latitude) as lat, coalesce(m.longitude, m.approx_longitude) as lon,
  coalesce(m.latitude is null or m.longitude is null or (m.latitude = m.approx_latitude and m.longitude = m.approx_longitude), false) as approximate`;
const located = sql`coalesce(m.latitude, m.approx_latitude) is not null and coalesce(m.longitude, m.approx_longitude) is not null`;
const inView = sql`coalesce(m.latitude, m.approx_latitude) between ${p('south')} and ${p('north')}
  and coalesce(m.longitude, m.approx_longitude) between ${p('west')} and ${p('east')}`;
const unsorted = sql`m.batch_id is null and m.status in ('draft', 'active')`;
/**
 * The « À trier » that cannot be placed, counted beside the map on missions_unsorted_unlocated_idx (decision 075), whose
 * condition is this count's: PostgreSQL uses the index only while this condition implies it (missions-map.test.ts
 * checks the plan), so a change here is a change to the index.
 */
export const unlocatedCounts = sql`(select count(*)::int as unlocated from missions m where ${unsorted} and not (${located})) counts`;

/**
 * The statement of the map for a shape (docs/decisions/038). Every part walks an index in its order and stops at
 * ROWS missions, so its cost is bounded by what the map shows, not by how many missions match:
 * - « À trier » first, oldest first (missions_unbatched_idx);
 * - then, without a view, the active lots most recent first (mission_batches_status_created_idx), each with its
 *   missions (missions_batch_idx);
 * - or, within a view, the missions of the active lots nearest its centre (maillon_lot_missions_in_view, migration
 *   0026: the position index walked in distance order);
 * - each lot's title and figure come with its missions (the legend); the « À trier » that cannot be placed are
 *   counted beside.
 */
function mapSql(withLots: boolean, withView: boolean): SQL {
  const lotMissions = withView
    ? sql`select v.id, v.title, v.lat, v.lon, v.approximate, v.batch_id, v.status, v.batch_title, v.defibrillators_sum
        from maillon_lot_missions_in_view(${p('south')}::float8, ${p('west')}::float8, ${p('north')}::float8, ${p('east')}::float8, ${sql.raw(String(ROWS))}) v`
    : sql`select m.id, m.title, m.lat, m.lon, m.approximate, b.id as batch_id, m.status, b.title as batch_title, b.defibrillators_sum
        from mission_batches b
        cross join lateral (
          select m.id, m.title, ${site}, m.status from missions m
          where m.batch_id = b.id and ${located} order by m.created_at, m.id
        ) m
        where b.status = 'active' and not b.is_system
        order by b.created_at desc, b.id desc
        limit ${sql.raw(String(ROWS))}`;
  const picked = sql`(
      select m.id, m.title, ${site}, m.batch_id, m.status, null::text as batch_title, null::int as defibrillators_sum from missions m
      where ${unsorted} and ${withView ? inView : located} order by m.created_at, m.id
      limit ${sql.raw(String(ROWS))}
    )${withLots ? sql` union all (${lotMissions}) limit ${sql.raw(String(ROWS))}` : sql``}`;
  return sql`
    with picked as materialized (${picked})
    select counts.unlocated, r.*
    from ${unlocatedCounts}
    left join picked r on true`;
}

/** One row of the groups' statement: a cell of the grid (both kinds added up), or none when the view has none. */
interface CellRow extends Record<string, unknown> {
  unlocated: number;
  y: number | null;
  x: number | null;
  n: number;
  unsorted: number;
  lat_sum: number;
  lon_sum: number;
  lat_sq_sum: number;
  lon_sq_sum: number;
}

/** The grid's finest level (migration 0034): cells of 4° / 2^8 = 1/64°, about 1.7 km. */
const CELL_LEVEL_MAX = 8;
/** The level of the whole map (no view): cells of 1°, about a hundred over mainland France. */
const CELL_LEVEL_FRANCE = 2;
/** A view is drawn with at most this many cells across its larger side (and more than half as many)… */
const CELLS_ACROSS = 12;
/** …and in groups only when at least this many cells cross it (a smaller view is drawn mission by mission). */
const CELLS_ACROSS_MIN = 4;

const cellSize = (level: number) => 4 / 2 ** level;

/**
 * The grid's level for a view's larger side in degrees (none: all of France): CELLS_ACROSS / 2 to CELLS_ACROSS cells
 * across it, groups far enough apart to read.
 */
function cellLevelFor(span: number | null): number {
  if (span === null) return CELL_LEVEL_FRANCE;
  if (span <= 0) return CELL_LEVEL_MAX;
  return Math.min(CELL_LEVEL_MAX, Math.max(0, Math.floor(Math.log2((CELLS_ACROSS * 4) / span))));
}

/**
 * The cells of a level (and within a view's rows and columns), both kinds added up with the lots; and the « À trier »
 * that cannot be placed. An indexed range of mission_map_cells' primary key: a few hundred rows at most. The level and
 * the kinds are written in the text, one statement per level and scope (at most 2 × 2 × 9): as parameters, PostgreSQL
 * could not tell how many cells a level holds and planned the statement again on every call (decision 061).
 */
function cellsSql(level: number, withLots: boolean, withView: boolean): SQL {
  return sql`
    select counts.unlocated, c.*
    from ${unlocatedCounts}
    left join (
      select y, x, sum(n)::int as n, coalesce(sum(n) filter (where kind = 'unsorted'), 0)::int as unsorted, sum(lat_sum) as lat_sum, sum(lon_sum) as lon_sum,
        sum(lat_sq_sum) as lat_sq_sum, sum(lon_sq_sum) as lon_sq_sum
      from mission_map_cells
      where level = ${sql.raw(String(Math.trunc(level)))} and kind in (${sql.raw(withLots ? "'unsorted', 'lot'" : "'unsorted'")}) and n > 0
        ${withView ? sql`and y between ${p('y0')} and ${p('y1')} and x between ${p('x0')} and ${p('x1')}` : sql``}
      group by y, x
    ) c on true`;
}

/** A group's spread is never drawn smaller than this (missions at one address): about 250 m. */
const SPREAD_MIN = 1 / 512;

/**
 * The mean of a group's coordinates, and the range to open it onto: two standard deviations on each side (most of its
 * missions), within its cell and at least SPREAD_MIN wide. The variance comes from the kept sums (mean of the squares
 * less the square of the mean), never below zero whatever the rounding.
 */
function spread(sum: number, squares: number, n: number, cellFrom: number, size: number) {
  const mean = sum / n;
  const deviation = Math.sqrt(Math.max(0, squares / n - mean * mean));
  const half = Math.max(2 * deviation, SPREAD_MIN / 2);
  return { mean, from: Math.max(cellFrom, mean - half), to: Math.min(cellFrom + size, mean + half) };
}

/** Positions to 6 decimals (about 0.1 m), as the technicians' map (decision 037): a third of the markers' bytes. */
const micro = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * The admin's map (docs/decisions/025, 038, 041): « À trier » missions (no lot, draft or active) and, unless `scope` is
 * 'unsorted', the missions of the active lots, within the view if one is given. A view whose cells hold more than
 * MAP_GROUPS_ABOVE is answered in groups (readGroups); otherwise its missions, at most MAP_MISSIONS_MAX, with `more`
 * when a small view holds others. Answered as JSON text written here (sendJsonText): checking 3 000 markers against
 * the response schema again cost more than the whole statement.
 */
export async function getMissionsMapJson(db: Db, query: MissionsMapQuery): Promise<string> {
  const withLots = query.scope !== 'unsorted';
  const withView = query.south !== undefined;
  const groups = await readGroups(db, query, withLots, withView);
  if (groups) return groups;
  const statement = preparedSql<MapRow>(db, `admin map${withLots ? ' lots' : ''}${withView ? ' view' : ''}`, () => mapSql(withLots, withView));
  // The function reads missions and lots where the statement's text does not name them (change-tracker.ts).
  if (withView && withLots) {
    dependsOn('missions');
    dependsOn('mission_batches');
  }
  const { rows } = await statement.execute(withView ? { south: query.south, west: query.west, north: query.north, east: query.east } : {});
  const shown = rows.length > MAP_MISSIONS_MAX ? rows.slice(0, MAP_MISSIONS_MAX) : rows;
  const lots = new Map<string, MissionsMap['lots'][number]>();
  let markers = '';
  for (const row of shown) {
    if (row.id === null) continue;
    if (row.batch_id !== null && !lots.has(row.batch_id)) lots.set(row.batch_id, { id: row.batch_id, title: row.batch_title ?? '', defibrillatorsSum: row.defibrillators_sum ?? 0 });
    markers += `${markers ? ',' : ''}{"id":"${row.id}","title":${JSON.stringify(row.title)},"lat":${micro(row.lat)},"lon":${micro(row.lon)},"approximate":${row.approximate},"batchId":${row.batch_id === null ? 'null' : `"${row.batch_id}"`},"status":"${row.status}"}`;
  }
  const legend = JSON.stringify([...lots.values()].sort((a, b) => frenchOrder(a.title, b.title)));
  return `{"missions":[${markers}],"lots":${legend},"more":${rows.length > MAP_MISSIONS_MAX},"clusters":[],"unlocatedUnsorted":${rows[0]?.unlocated ?? 0}}`;
}

/**
 * The view in groups (decisions 041, 053), when its cells hold more than MAP_GROUPS_ABOVE missions and at least
 * CELLS_ACROSS_MIN cells cross it; otherwise null, and the map draws its missions one by one. The cells that cross the
 * view's edges count their missions outside it too: the total can only overstate what the view holds, so a view
 * drawn mission by mission never misses one.
 */
async function readGroups(db: Db, query: MissionsMapQuery, withLots: boolean, withView: boolean): Promise<string | null> {
  const span = withView ? Math.max(query.east! - query.west!, query.north! - query.south!) : null;
  const level = cellLevelFor(span);
  const size = cellSize(level);
  if (span !== null && span / size < CELLS_ACROSS_MIN) return null;
  const statement = preparedSql<CellRow>(db, `admin map cells ${level}${withLots ? ' lots' : ''}${withView ? ' view' : ''}`, () =>
    cellsSql(level, withLots, withView),
  );
  const bounds = withView
    ? {
        y0: Math.floor(query.south! / size),
        y1: Math.floor(query.north! / size),
        x0: Math.floor(query.west! / size),
        x1: Math.floor(query.east! / size),
      }
    : {};
  const { rows } = await statement.execute(bounds);
  let total = 0;
  for (const row of rows) total += row.n ?? 0;
  if (total <= MAP_GROUPS_ABOVE) return null;
  let clusters = '';
  for (const row of rows) {
    if (row.y === null || row.x === null) continue;
    const lat = spread(row.lat_sum, row.lat_sq_sum, row.n, row.y * size, size);
    const lon = spread(row.lon_sum, row.lon_sq_sum, row.n, row.x * size, size);
    clusters += `${clusters ? ',' : ''}{"lat":${micro(lat.mean)},"lon":${micro(lon.mean)},"count":${row.n},"unsorted":${row.unsorted},"south":${micro(lat.from)},"west":${micro(lon.from)},"north":${micro(lat.to)},"east":${micro(lon.to)}}`;
  }
  return `{"missions":[],"lots":[],"more":false,"clusters":[${clusters}],"unlocatedUnsorted":${rows[0]?.unlocated ?? 0}}`;
}
