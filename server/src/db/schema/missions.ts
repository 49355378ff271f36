import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  doublePrecision,
  index,
  integer,
  json,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { BATCH_STATUSES, BATCH_VISIBILITIES, JOB_STATUSES, MISSION_STATUSES } from '@maillon/common/enums';
import { createdAt, id, searchText, sqlList, updatedAt } from './_columns';
import { devices } from './devices';

export const missionBatches = pgTable(
  'mission_batches',
  {
    id: id(),
    title: text().notNull(),
    description: text(),
    priceCents: integer().notNull().default(0),
    departments: text().array().notNull().default(sql`'{}'::text[]`),
    tags: text().array().notNull().default(sql`'{}'::text[]`),
    deadline: timestamp({ withTimezone: true }),
    visibility: text().notNull().default('invisible'),
    status: text().notNull().default('active'),
    isSystem: boolean().notNull().default(false),
    defibrillatorsSum: integer().notNull().default(0),
    defibrillatorsDone: integer().notNull().default(0),
    amountPerDefibCents: integer().notNull().default(0),
    /**
     * Where the lot's sites are (docs/decisions/025), recomputed with its figures in the transaction of every change of
     * its missions: located sites, those placed by their postal code only, bounding box, mean point, and the distinct
     * site positions (parallel arrays) for exact distances and round trips without reading the missions.
     */
    geoSiteCount: integer().notNull().default(0),
    geoApproximateCount: integer().notNull().default(0),
    geoMinLat: doublePrecision(),
    geoMaxLat: doublePrecision(),
    geoMinLon: doublePrecision(),
    geoMaxLon: doublePrecision(),
    geoLat: doublePrecision(),
    geoLon: doublePrecision(),
    geoSiteLats: doublePrecision().array().notNull().default(sql`'{}'::double precision[]`),
    geoSiteLons: doublePrecision().array().notNull().default(sql`'{}'::double precision[]`),
    /**
     * What the lists of lots show of their missions and applications (docs/decisions/030), kept by triggers on missions
     * and applications in the writer's transaction (migration 0017), so a page of lots reads them instead of counting:
     * the lot's missions (its devices), their distinct models and departments, its applications, and whether a
     * technician is recruited (an application « Recruté » or « Terminé »).
     */
    missionCount: integer().notNull().default(0),
    missionModels: text().array().notNull().default(sql`'{}'::text[]`),
    missionDepartments: text().array().notNull().default(sql`'{}'::text[]`),
    applicationCount: integer().notNull().default(0),
    hasRecruit: boolean().notNull().default(false),
    /**
     * The lot as the technician's lists answer it, the JSON object of AvailableLot but for what depends on the reader
     * (distance, round trip, whether they applied) and the models (sorted in French by the server): written by a BEFORE
     * trigger from the row itself on every insert and update (migrations 0020, 0022). A page of « Trouver des missions »
     * sends these texts as they are, without parsing or serialising them (docs/decisions/033).
     */
    listJson: text().notNull().default('{}'),
    /** The coordinates of the lot's sites, `[lats, lons]` in JSON, written by the same trigger: the server's round trips. */
    listSites: text().notNull().default('[[],[]]'),
    /**
     * The searched text of the lot's missions (their `search_text`, in id order), kept by the same triggers as the
     * figures (maillon_refresh_lot_missions, migration 0041, decision 054), with its own trigram index: the admin's
     * search of lots reaches them (decision 055).
     */
    missionsSearchText: text().notNull().default(''),
    /**
     * The lot's missions as the « Terminés » sub-tab answers them (completedBatchSchema's `missions`, by title), kept by
     * the same triggers (migration 0048, decision 065): a page of completed lots reads twenty values instead of their
     * missions. `json`, so that the page's statement writes it into the answer as it is.
     */
    missionsJson: json().notNull().default(sql`'[]'::json`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** The admin's search of lots, on the lot's own fields: its title and description (decision 055). */
    searchText: searchText(['title', 'description']),
  },
  (t) => [
    check('mission_batches_visibility_check', sql.raw(`visibility in (${sqlList(BATCH_VISIBILITIES)})`)),
    check('mission_batches_status_check', sql.raw(`status in (${sqlList(BATCH_STATUSES)})`)),
    check('mission_batches_tags_check', sql`cardinality(${t.tags}) <= 2`),
    check('mission_batches_price_check', sql`${t.priceCents} >= 0`),
    index('mission_batches_listing_idx').on(t.visibility, t.status, t.createdAt),
    index('mission_batches_status_created_idx').on(t.status, t.createdAt, t.id).where(sql`not is_system`),
    // The active lots with a recruit by title: Expéditions' proposals and the lots a parcel can be made for (decision 040).
    index('mission_batches_recruited_title_idx').on(t.title, t.id).where(sql`status = 'active' and not is_system and has_recruit`),
    index('mission_batches_departments_idx').using('gin', t.departments),
    index('mission_batches_tags_idx').using('gin', t.tags),
    index('mission_batches_search_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')),
    index('mission_batches_missions_search_trgm_idx').using('gin', t.missionsSearchText.op('gin_trgm_ops')),
    uniqueIndex('mission_batches_single_system_idx').on(t.isSystem).where(sql`is_system`),
    // The lots open to applications (isOpenLot), most recent first: the technician's list and its count read only this.
    // Walked backwards for the « most recent » order (created_at desc, title, id), which Postgres's default null ordering
    // (DESC NULLS FIRST) makes the exact reverse of this one; a DESC NULLS LAST index would not serve it (decision 027).
    index('mission_batches_open_idx')
      .on(t.createdAt, t.title.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`visibility = 'visible' and status <> 'completed' and not is_system`),
    // The open lots the map of « Trouver des missions » cannot place, counted apart (migration 0024, decision 036).
    index('mission_batches_open_unlocated_idx')
      .on(t.createdAt)
      .where(sql`visibility = 'visible' and status <> 'completed' and not is_system and geo_site_count = 0`),
  ],
);

/** A point of the unit sphere (x, y, z) in the `cube` extension's type: the chord between two is monotone in their distance. */
const unitSpherePoint = customType<{ data: string; driverData: string }>({ dataType: () => 'cube' });

/**
 * The sites of the lots open to applications, one row per site and department of its lot (a lot without a department
 * has one row per site under ''), kept by a trigger on mission_batches from its site arrays (migration 0017,
 * docs/decisions/030). Its GiST indexes walk sites in order of distance from a technician's home (KNN), nearest first,
 * for « Les plus proches » without computing the distance of every lot; `created_at` is the lot's, the tie-break.
 */
export const lotSites = pgTable(
  'lot_sites',
  {
    batchId: uuid()
      .notNull()
      .references(() => missionBatches.id, { onDelete: 'cascade' }),
    // COLLATE "C" (migration 0021): compared byte by byte in the (department, site) GiST index.
    department: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    site: unitSpherePoint().notNull(),
  },
  // Both GiST indexes also hold batch_id and created_at (INCLUDE, written in migration 0017): the walk reads the index only.
  (t) => [
    index('lot_sites_site_idx').using('gist', t.site),
    index('lot_sites_department_site_idx').using('gist', t.department, t.site),
    index('lot_sites_batch_idx').on(t.batchId),
  ],
);

/**
 * The map's markers (« Trouver des missions »): one row per open lot with a located site, at the mean point of its
 * sites, with its departments and tags (the filters) and the marker's JSON as the map sends it, kept by a trigger on
 * mission_batches (migration 0024, docs/decisions/036). The GiST index holds everything but created_at (INCLUDE,
 * written in the migration): the nearest markers are read from the index alone, in order of distance (KNN).
 */
export const lotMarkers = pgTable(
  'lot_markers',
  {
    batchId: uuid()
      .primaryKey()
      .references(() => missionBatches.id, { onDelete: 'cascade' }),
    point: unitSpherePoint().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    departments: text().array().notNull(),
    tags: text().array().notNull(),
    marker: text().notNull(),
  },
  (t) => [
    index('lot_markers_point_idx').using('gist', t.point),
    // The map without a home, most recent first; INCLUDE (departments, tags, marker) written in migration 0035.
    index('lot_markers_recent_idx').on(t.createdAt.desc().nullsFirst(), t.batchId),
  ],
);

export const missions = pgTable(
  'missions',
  {
    id: id(),
    title: text().notNull(),
    description: text(),
    location: text(),
    department: text(),
    budgetCents: integer().notNull().default(0),
    deadline: timestamp({ withTimezone: true }),
    tags: text().array().notNull().default(sql`'{}'::text[]`),
    status: text().notNull().default('draft'),
    batchId: uuid().references(() => missionBatches.id, { onDelete: 'set null' }),
    /** The lot a device was in when that lot finished without it (it then moved to the system lot). */
    originBatchId: uuid().references(() => missionBatches.id, { onDelete: 'set null' }),
    serialNumber: text(),
    clientName: text(),
    defibrillatorModel: text(),
    visitType: text(),
    telSite: text(),
    emailSite: text(),
    completionLink: text(),
    observations: text(),
    postalCode: text(),
    city: text(),
    latitude: doublePrecision(),
    longitude: doublePrecision(),
    /** The physical defibrillator of this visit (device registry), found by its normalised serial number. */
    deviceId: uuid().references(() => devices.id, { onDelete: 'set null' }),
    /** The position of the postal code / city (offline geocoding), used where latitude/longitude are unknown. */
    approxLatitude: doublePrecision(),
    approxLongitude: doublePrecision(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** The admin search's text: the spec's search fields (02 §2) plus the client name. */
    searchText: searchText(['title', 'description', 'location', 'department', 'serial_number', 'defibrillator_model', 'visit_type', 'observations', 'client_name']),
  },
  (t) => [
    check('missions_status_check', sql.raw(`status in (${sqlList(MISSION_STATUSES)})`)),
    // The admin list's orders (most recent first, id as tie-breaker): unfiltered, within a lot, by status, « À trier »
    // (decision 027). A page walks one of these backwards and stops after `limit` rows instead of sorting the table.
    index('missions_created_idx').on(t.createdAt, t.id),
    index('missions_batch_idx').on(t.batchId, t.createdAt, t.id),
    index('missions_origin_batch_idx').on(t.originBatchId),
    index('missions_status_idx').on(t.status, t.createdAt, t.id),
    index('missions_unbatched_idx').on(t.createdAt, t.id).where(sql`batch_id is null`),
    // The « À trier » that cannot be placed, counted beside the admin's map (missions-map.service.ts, with this
    // condition): the count read every « À trier » on missions_unbatched_idx before, 2 000 at full scale (0.64 ms →
    // 0.04 ms, decision 075).
    index('missions_unsorted_unlocated_idx')
      .on(t.id)
      .where(
        sql`batch_id is null and status in ('draft', 'active') and not (coalesce(latitude, approx_latitude) is not null and coalesce(longitude, approx_longitude) is not null)`,
      ),
    index('missions_department_idx').on(t.department),
    index('missions_device_idx').on(t.deviceId),
    index('missions_search_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')),
    // The missions each start tries to place (backfillPositions): without it, every instance's start read the table.
    index('missions_unplaced_idx').on(t.id).where(sql`approx_latitude is null`),
    // The admin map's viewport query: the known position, else the approximate one.
    index('missions_position_idx').using(
      'gist',
      sql`point(coalesce(${t.longitude}, ${t.approxLongitude}), coalesce(${t.latitude}, ${t.approxLatitude}))`,
    ),
  ],
);

export const jobs = pgTable(
  'jobs',
  {
    id: id(),
    serialNumber: text().notNull(),
    clientName: text().notNull(),
    defibrillatorModel: text().notNull(),
    visitType: text().notNull(),
    department: text().notNull(),
    completionLink: text().notNull(),
    address: text().notNull(),
    postalCode: text(),
    city: text(),
    telSite: text(),
    emailSite: text(),
    observations: text(),
    latitude: doublePrecision(),
    longitude: doublePrecision(),
    source: text().notNull().default('manual'),
    status: text().notNull().default('pending'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('jobs_status_check', sql.raw(`status in (${sqlList(JOB_STATUSES)})`)),
    index('jobs_status_idx').on(t.status, t.createdAt),
    uniqueIndex('jobs_pending_unique_idx')
      .on(t.serialNumber, t.visitType)
      .where(sql`status = 'pending'`),
  ],
);
