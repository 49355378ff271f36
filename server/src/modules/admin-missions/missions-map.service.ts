import { sql, type SQL } from 'drizzle-orm';
import type { MissionStatus } from '@maillon/common/enums';
import { MAP_MISSIONS_MAX, type MissionsMap, type MissionsMapQuery } from '@maillon/common/schemas/admin-missions';
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
    from (select count(*)::int as unlocated from missions m where ${unsorted} and not (${located})) counts
    left join picked r on true`;
}

/** Positions to 6 decimals (about 0.1 m), as the technicians' map (decision 037): a third of the markers' bytes. */
const micro = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * The admin's map (docs/decisions/025, 038): « À trier » missions (no lot, draft or active) and, unless `scope` is
 * 'unsorted', the missions of the active lots, within the view if one is given, at most MAP_MISSIONS_MAX, with
 * `more` when the view holds others. Answered as JSON text written here (sendJsonText): checking 3 000 markers against
 * the response schema again cost more than the whole statement.
 */
export async function getMissionsMapJson(db: Db, query: MissionsMapQuery): Promise<string> {
  const withLots = query.scope !== 'unsorted';
  const withView = query.south !== undefined;
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
  return `{"missions":[${markers}],"lots":${legend},"more":${rows.length > MAP_MISSIONS_MAX},"unlocatedUnsorted":${rows[0]?.unlocated ?? 0}}`;
}
