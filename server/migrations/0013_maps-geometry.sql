ALTER TABLE "mission_batches" ADD COLUMN "geo_site_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mission_batches" ADD COLUMN "geo_approximate_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mission_batches" ADD COLUMN "geo_min_lat" double precision;--> statement-breakpoint
ALTER TABLE "mission_batches" ADD COLUMN "geo_max_lat" double precision;--> statement-breakpoint
ALTER TABLE "mission_batches" ADD COLUMN "geo_min_lon" double precision;--> statement-breakpoint
ALTER TABLE "mission_batches" ADD COLUMN "geo_max_lon" double precision;--> statement-breakpoint
ALTER TABLE "mission_batches" ADD COLUMN "geo_lat" double precision;--> statement-breakpoint
ALTER TABLE "mission_batches" ADD COLUMN "geo_lon" double precision;--> statement-breakpoint
ALTER TABLE "mission_batches" ADD COLUMN "geo_site_lats" double precision[] DEFAULT '{}'::double precision[] NOT NULL;--> statement-breakpoint
ALTER TABLE "mission_batches" ADD COLUMN "geo_site_lons" double precision[] DEFAULT '{}'::double precision[] NOT NULL;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "approx_latitude" double precision;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "approx_longitude" double precision;--> statement-breakpoint
CREATE INDEX "mission_batches_open_idx" ON "mission_batches" USING btree ("created_at" DESC NULLS LAST,"id") WHERE visibility = 'visible' and status <> 'completed' and not is_system;--> statement-breakpoint
CREATE INDEX "mission_batches_geo_box_idx" ON "mission_batches" USING gist (box(point("geo_min_lon", "geo_min_lat"), point("geo_max_lon", "geo_max_lat"))) WHERE visibility = 'visible' and status <> 'completed' and not is_system and geo_site_count > 0;--> statement-breakpoint
CREATE INDEX "missions_position_idx" ON "missions" USING gist (point(coalesce("longitude", "approx_longitude"), coalesce("latitude", "approx_latitude")));--> statement-breakpoint
-- Geometry of the existing lots from their missions' own coordinates (lib/positions.ts refreshLotGeometry; the
-- approximate positions are added at start by backfillPositions, which recomputes the lots concerned).
UPDATE "mission_batches" b SET
  geo_site_count = g.sites, geo_approximate_count = g.approximate,
  geo_min_lat = g.min_lat, geo_max_lat = g.max_lat, geo_min_lon = g.min_lon, geo_max_lon = g.max_lon,
  geo_lat = g.lat, geo_lon = g.lon, geo_site_lats = g.lats, geo_site_lons = g.lons
FROM (
  SELECT l.id, count(s.lat)::int AS sites, 0 AS approximate,
    min(s.lat) AS min_lat, max(s.lat) AS max_lat, min(s.lon) AS min_lon, max(s.lon) AS max_lon, avg(s.lat) AS lat, avg(s.lon) AS lon,
    coalesce(array_agg(s.lat ORDER BY s.lat, s.lon) FILTER (WHERE s.lat IS NOT NULL), '{}') AS lats,
    coalesce(array_agg(s.lon ORDER BY s.lat, s.lon) FILTER (WHERE s.lat IS NOT NULL), '{}') AS lons
  FROM "mission_batches" l
  JOIN LATERAL (
    SELECT DISTINCT m.latitude AS lat, m.longitude AS lon FROM "missions" m
    WHERE m.batch_id = l.id AND m.latitude IS NOT NULL AND m.longitude IS NOT NULL
  ) s ON true
  GROUP BY l.id
) g
WHERE b.id = g.id;
