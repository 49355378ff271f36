import { bigint, doublePrecision, integer, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';

/**
 * Row counts kept by the database itself (decision 027): for each counted table, the number of its rows per key (a
 * status, a status and whether the mission is in a lot, a device's attention date…). Statement-level triggers
 * (`maillon_count_rows_<table>`, migrations 0015 and 0044) add each statement's inserted rows and take away its deleted ones, in the
 * writer's transaction, whatever wrote them (API, job, psql, another instance); a read of a count is an indexed lookup
 * of a few rows instead of a count over the table. The tables and keys: COUNTED_TABLES in lib/row-counts.ts.
 */
export const rowCounts = pgTable(
  'row_counts',
  {
    tableName: text().notNull(),
    key: text().notNull(),
    n: bigint({ mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tableName, t.key] })],
);

/**
 * The admin's map in groups (decision 041): the missions the map shows (placed, and « À trier » or in an active lot)
 * counted per square cell of a grid, at nine sizes (`level` 0: 4° of latitude and longitude, each level half the
 * previous, level 8: 1/64°, about 1.7 km), with the sums of their positions and of their squares (a group is drawn at
 * their mean and opens onto their spread). Kept by
 * triggers on missions and mission_batches in the writer's transaction (migration 0034); a view with more missions
 * than the map draws one by one reads its cells instead of its missions.
 */
export const missionMapCells = pgTable(
  'mission_map_cells',
  {
    level: smallint().notNull(),
    /** 'unsorted' (« À trier ») or 'lot' (a mission of an active lot). */
    kind: text().notNull(),
    /** floor(latitude / size) and floor(longitude / size), size = 4° / 2^level. */
    y: integer().notNull(),
    x: integer().notNull(),
    n: integer().notNull().default(0),
    latSum: doublePrecision().notNull().default(0),
    lonSum: doublePrecision().notNull().default(0),
    /** Sums of the squares: the spread of the cell's missions (variance = mean of squares − square of the mean). */
    latSqSum: doublePrecision().notNull().default(0),
    lonSqSum: doublePrecision().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.level, t.kind, t.y, t.x] })],
);
