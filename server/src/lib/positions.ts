import { and, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { missions, technicians } from '../db/schema';
import { geocode, type GeoPoint, type PlaceQuery } from './geo';

/**
 * Where missions, lots and technicians are (docs/decisions/025-maps-and-distances.md).
 *
 * - A mission's site is its own latitude/longitude when known, else the position of its postal code / city
 *   (`approx_latitude/longitude`, offline geocoding). A site is *approximate* when it has no coordinates of its own, or
 *   when its coordinates are exactly its commune's reference point (moderation fills missing coordinates that way).
 * - A lot's geometry (mission_batches.geo_*) is recomputed from its missions' sites with its figures, in the
 *   transaction of every change of its missions (lifecycle recomputeBatchFigures).
 * - A technician's home is the geocoded profile address, stored in technicians.latitude/longitude when it is saved.
 */

/** Position of a postal code / city / address line; a department centre is too vague to be kept. */
export function approximatePosition(place: PlaceQuery): GeoPoint | null {
  const found = geocode({ address: place.address, postalCode: place.postalCode, city: place.city, department: place.department });
  return found && found.precision !== 'department' ? { lat: found.lat, lon: found.lon } : null;
}

/** The approx_* columns of a mission written with these location fields. */
export function missionApproxColumns(place: { location?: string | null; postalCode?: string | null; city?: string | null; department?: string | null }) {
  const point = approximatePosition({ address: place.location, postalCode: place.postalCode, city: place.city, department: place.department });
  return { approxLatitude: point?.lat ?? null, approxLongitude: point?.lon ?? null };
}

/** The technicians.latitude/longitude of a profile address (null when it cannot be located). */
export function technicianHomeColumns(address: { address?: string | null; postalCode?: string | null; city?: string | null }) {
  const point = address.postalCode || address.city ? approximatePosition(address) : null;
  return { latitude: point?.lat ?? null, longitude: point?.lon ?? null };
}

/**
 * Recomputes the geometry of the lots matching `lots` (an SQL condition on mission_batches aliased `l`) from their
 * missions, in one statement: distinct sites, how many are approximate, bounding box, mean point, site arrays.
 */
export async function refreshLotGeometry(tx: DbOrTx, lots: SQL): Promise<void> {
  await tx.execute(sql`
    update mission_batches b set
      geo_site_count = g.sites,
      geo_approximate_count = g.approximate,
      geo_min_lat = g.min_lat, geo_max_lat = g.max_lat, geo_min_lon = g.min_lon, geo_max_lon = g.max_lon,
      geo_lat = g.lat, geo_lon = g.lon,
      geo_site_lats = g.lats, geo_site_lons = g.lons
    from (
      select l.id,
        count(s.lat)::int as sites,
        (count(s.lat) filter (where s.approximate))::int as approximate,
        min(s.lat) as min_lat, max(s.lat) as max_lat, min(s.lon) as min_lon, max(s.lon) as max_lon,
        avg(s.lat) as lat, avg(s.lon) as lon,
        coalesce(array_agg(s.lat order by s.lat, s.lon) filter (where s.lat is not null), '{}') as lats,
        coalesce(array_agg(s.lon order by s.lat, s.lon) filter (where s.lat is not null), '{}') as lons
      from mission_batches l
      left join lateral (
        select m.lat, m.lon, bool_and(m.approximate) as approximate
        from (
          select coalesce(latitude, approx_latitude) as lat, coalesce(longitude, approx_longitude) as lon,
            (latitude is null or longitude is null or (latitude = approx_latitude and longitude = approx_longitude)) as approximate
          from missions where batch_id = l.id
        ) m
        where m.lat is not null and m.lon is not null
        group by m.lat, m.lon
      ) s on true
      where ${lots}
      group by l.id
    ) g
    where b.id = g.id`);
}

/** Geometry of some lots (by id). */
export async function refreshLotsGeometry(tx: DbOrTx, batchIds: readonly (string | null | undefined)[]): Promise<void> {
  const ids = [...new Set(batchIds.filter((id): id is string => Boolean(id)))];
  if (ids.length > 0) await refreshLotGeometry(tx, sql`l.id in ${ids}`);
}

const BACKFILL_CHUNK = 500;

/** `update <table> set lat/lon columns from (values …)`, one statement per chunk of rows. */
async function setPositions(db: DbOrTx, table: 'missions' | 'technicians', rows: { id: string; lat: number; lon: number }[]): Promise<void> {
  const columns = table === 'missions' ? sql.raw('approx_latitude = v.lat, approx_longitude = v.lon') : sql.raw('latitude = v.lat, longitude = v.lon');
  for (let i = 0; i < rows.length; i += BACKFILL_CHUNK) {
    const values = sql.join(
      rows.slice(i, i + BACKFILL_CHUNK).map((r) => sql`(${r.id}::uuid, ${r.lat}::float8, ${r.lon}::float8)`),
      sql`, `,
    );
    await db.execute(sql`update ${sql.raw(table)} t set ${columns} from (values ${values}) as v(id, lat, lon) where t.id = v.id`);
  }
}

/**
 * Fills what older rows lack, at start (idempotent; several instances may run it at once): technicians' home
 * coordinates from their address, missions' approximate positions, then the geometry of the lots concerned.
 * Rows that cannot be located stay as they are (and are tried again at the next start).
 */
export async function backfillPositions(db: DbOrTx): Promise<{ technicians: number; missions: number; lots: number }> {
  const homeless = await db
    .select({ id: technicians.id, address: technicians.address, postalCode: technicians.postalCode, city: technicians.city })
    .from(technicians)
    .where(and(or(isNull(technicians.latitude), isNull(technicians.longitude)), or(isNotNull(technicians.postalCode), isNotNull(technicians.city))));
  const homes = homeless.flatMap((row) => {
    const home = technicianHomeColumns(row);
    return home.latitude !== null && home.longitude !== null ? [{ id: row.id, lat: home.latitude, lon: home.longitude }] : [];
  });
  await setPositions(db, 'technicians', homes);

  const unplaced = await db
    .select({ id: missions.id, batchId: missions.batchId, location: missions.location, postalCode: missions.postalCode, city: missions.city, department: missions.department })
    .from(missions)
    .where(and(isNull(missions.approxLatitude), or(isNotNull(missions.postalCode), isNotNull(missions.city), isNotNull(missions.location))));
  const lotIds = new Set<string>();
  const placed = unplaced.flatMap((row) => {
    const approx = missionApproxColumns(row);
    if (approx.approxLatitude === null || approx.approxLongitude === null) return [];
    if (row.batchId) lotIds.add(row.batchId);
    return [{ id: row.id, lat: approx.approxLatitude, lon: approx.approxLongitude }];
  });
  await setPositions(db, 'missions', placed);
  const ids = [...lotIds];
  for (let i = 0; i < ids.length; i += BACKFILL_CHUNK) await refreshLotsGeometry(db, ids.slice(i, i + BACKFILL_CHUNK));
  return { technicians: homes.length, missions: placed.length, lots: ids.length };
}
