-- « Trouver des missions » without recomputing on every read (docs/decisions/030): what a list of lots shows of its
-- missions and applications is kept on mission_batches, and the sites of the open lots are indexed on the unit sphere
-- (cube, GiST) so that nearest first walks sites in order of distance (KNN) instead of measuring every lot.
-- cube: points and their chord distance, GiST KNN; btree_gist: a department and a point in one GiST index. Both are
-- contrib extensions shipped with PostgreSQL (trusted since 13) and loaded into PGlite by db/client.ts.
CREATE EXTENSION IF NOT EXISTS cube;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS btree_gist;--> statement-breakpoint
CREATE TABLE "lot_sites" (
	"batch_id" uuid NOT NULL,
	"department" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"site" "cube" NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mission_batches" ADD COLUMN "mission_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mission_batches" ADD COLUMN "mission_models" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "mission_batches" ADD COLUMN "mission_departments" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "mission_batches" ADD COLUMN "application_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mission_batches" ADD COLUMN "has_recruit" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "lot_sites" ADD CONSTRAINT "lot_sites_batch_id_mission_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."mission_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Covering (INCLUDE): a walk in order of distance reads the index only (drizzle's schema cannot write INCLUDE).
CREATE INDEX "lot_sites_site_idx" ON "lot_sites" USING gist ("site") INCLUDE ("batch_id", "created_at");--> statement-breakpoint
CREATE INDEX "lot_sites_department_site_idx" ON "lot_sites" USING gist ("department","site") INCLUDE ("batch_id", "created_at");--> statement-breakpoint
CREATE INDEX "lot_sites_batch_idx" ON "lot_sites" USING btree ("batch_id");
--> statement-breakpoint
-- A position as a point of the unit sphere: the chord between two points is 2·sin(d / 2R) for their great-circle
-- distance d, so ordering by chord is ordering by distance (mission-batches.service.ts turns one into the other).
create or replace function maillon_unit_point(lat double precision, lon double precision) returns cube
language sql immutable strict parallel safe as $$
  select cube(array[cos(radians(lat)) * cos(radians(lon)), cos(radians(lat)) * sin(radians(lon)), sin(radians(lat))])
$$;
--> statement-breakpoint
-- The lots' figures from their missions, for the lots `ids`. The lots are locked first, in id order, and counted by
-- the next statement, whose snapshot includes what a writer that held the lock before committed: two transactions
-- changing one lot's missions at once each count the other's rows (a count taken before the lock could lose one).
-- A lot whose figures are already right is not written (no row version, no notification for nothing).
create or replace function maillon_refresh_lot_missions(ids uuid[]) returns void
language plpgsql as $$
begin
  if cardinality(ids) = 0 then return; end if;
  perform 1 from mission_batches where id = any(ids) order by id for no key update;
  update mission_batches b set mission_count = f.n, mission_models = f.models, mission_departments = f.departments
  from (
    select l.id, count(m.id)::int as n,
      coalesce(array_agg(distinct m.defibrillator_model order by m.defibrillator_model)
        filter (where coalesce(m.defibrillator_model, '') <> ''), '{}') as models,
      coalesce(array_agg(distinct m.department order by m.department) filter (where coalesce(m.department, '') <> ''), '{}') as departments
    from (select distinct unnest(ids) as id) l
    left join missions m on m.batch_id = l.id
    group by l.id
  ) f
  where b.id = f.id and (b.mission_count, b.mission_models, b.mission_departments) is distinct from (f.n, f.models, f.departments);
end
$$;
--> statement-breakpoint
-- The lots' figures from their applications (locked, then counted, as above): how many, and whether one is « Recruté »
-- or « Terminé ».
create or replace function maillon_refresh_lot_applications(ids uuid[]) returns void
language plpgsql as $$
begin
  if cardinality(ids) = 0 then return; end if;
  perform 1 from mission_batches where id = any(ids) order by id for no key update;
  update mission_batches b set application_count = f.n, has_recruit = f.recruited
  from (
    select l.id, count(a.id)::int as n, coalesce(bool_or(a.status in ('Recruté', 'Terminé')), false) as recruited
    from (select distinct unnest(ids) as id) l
    left join applications a on a.batch_id = l.id
    group by l.id
  ) f
  where b.id = f.id and (b.application_count, b.has_recruit) is distinct from (f.n, f.recruited);
end
$$;
--> statement-breakpoint
-- After each statement on missions: the lots of the rows it inserted or deleted, and of the rows whose lot, model or
-- department it changed (both lots when a mission moves).
create or replace function maillon_missions_lot_figures() returns trigger
language plpgsql as $$
begin
  if TG_OP = 'INSERT' then
    perform maillon_refresh_lot_missions(array(select batch_id from new_rows where batch_id is not null));
  elsif TG_OP = 'DELETE' then
    perform maillon_refresh_lot_missions(array(select batch_id from old_rows where batch_id is not null));
  elsif TG_OP = 'UPDATE' then
    perform maillon_refresh_lot_missions(array(
      select x.batch_id
      from old_rows o join new_rows n on n.id = o.id
      cross join lateral (values (o.batch_id), (n.batch_id)) x(batch_id)
      where x.batch_id is not null
        and (o.batch_id, o.defibrillator_model, o.department) is distinct from (n.batch_id, n.defibrillator_model, n.department)));
  else -- TRUNCATE
    update mission_batches set mission_count = 0, mission_models = '{}', mission_departments = '{}' where mission_count <> 0;
  end if;
  return null;
end
$$;
--> statement-breakpoint
create or replace function maillon_applications_lot_figures() returns trigger
language plpgsql as $$
begin
  if TG_OP = 'INSERT' then
    perform maillon_refresh_lot_applications(array(select batch_id from new_rows where batch_id is not null));
  elsif TG_OP = 'DELETE' then
    perform maillon_refresh_lot_applications(array(select batch_id from old_rows where batch_id is not null));
  elsif TG_OP = 'UPDATE' then
    perform maillon_refresh_lot_applications(array(
      select x.batch_id
      from old_rows o join new_rows n on n.id = o.id
      cross join lateral (values (o.batch_id), (n.batch_id)) x(batch_id)
      where x.batch_id is not null and (o.batch_id, o.status) is distinct from (n.batch_id, n.status)));
  else -- TRUNCATE
    update mission_batches set application_count = 0, has_recruit = false where application_count <> 0 or has_recruit;
  end if;
  return null;
end
$$;
--> statement-breakpoint
-- The sites of the open lots (visible, not completed, not the system lot) in lot_sites, from the lot's site arrays:
-- rewritten for the lots a statement inserted, or whose openness, departments or sites it changed.
create or replace function maillon_insert_lot_sites(ids uuid[]) returns void
language sql as $$
  insert into lot_sites (batch_id, department, created_at, site)
  select b.id, d.department, b.created_at, maillon_unit_point(s.lat, s.lon)
  from mission_batches b
  cross join lateral unnest(b.geo_site_lats, b.geo_site_lons) s(lat, lon)
  cross join lateral unnest(case when cardinality(b.departments) = 0 then array[''] else b.departments end) d(department)
  where b.id = any(ids) and b.visibility = 'visible' and b.status <> 'completed' and not b.is_system
    and s.lat is not null and s.lon is not null
$$;
--> statement-breakpoint
create or replace function maillon_lot_sites() returns trigger
language plpgsql as $$
declare
  changed uuid[];
begin
  if TG_OP = 'INSERT' then
    perform maillon_insert_lot_sites(array(select id from new_rows));
  elsif TG_OP = 'UPDATE' then
    changed := array(
      select n.id from old_rows o join new_rows n on n.id = o.id
      where (o.visibility, o.status, o.is_system, o.departments, o.created_at, o.geo_site_lats, o.geo_site_lons)
        is distinct from (n.visibility, n.status, n.is_system, n.departments, n.created_at, n.geo_site_lats, n.geo_site_lons));
    if cardinality(changed) > 0 then
      delete from lot_sites where batch_id = any(changed);
      perform maillon_insert_lot_sites(changed);
    end if;
  end if;
  return null;
end
$$;
--> statement-breakpoint
-- Everything again from the rows (this migration's first fill; a repair after writes made with triggers disabled).
create or replace function maillon_rebuild_lot_listing() returns void
language plpgsql as $$
begin
  lock table mission_batches in share row exclusive mode;
  perform maillon_refresh_lot_missions(array(select id from mission_batches));
  perform maillon_refresh_lot_applications(array(select id from mission_batches));
  delete from lot_sites;
  perform maillon_insert_lot_sites(array(select id from mission_batches));
end
$$;
--> statement-breakpoint
create trigger maillon_lot_figures_insert after insert on missions referencing new table as new_rows
  for each statement execute function maillon_missions_lot_figures();--> statement-breakpoint
create trigger maillon_lot_figures_update after update on missions referencing old table as old_rows new table as new_rows
  for each statement execute function maillon_missions_lot_figures();--> statement-breakpoint
create trigger maillon_lot_figures_delete after delete on missions referencing old table as old_rows
  for each statement execute function maillon_missions_lot_figures();--> statement-breakpoint
create trigger maillon_lot_figures_truncate after truncate on missions
  for each statement execute function maillon_missions_lot_figures();--> statement-breakpoint
create trigger maillon_lot_figures_insert after insert on applications referencing new table as new_rows
  for each statement execute function maillon_applications_lot_figures();--> statement-breakpoint
create trigger maillon_lot_figures_update after update on applications referencing old table as old_rows new table as new_rows
  for each statement execute function maillon_applications_lot_figures();--> statement-breakpoint
create trigger maillon_lot_figures_delete after delete on applications referencing old table as old_rows
  for each statement execute function maillon_applications_lot_figures();--> statement-breakpoint
create trigger maillon_lot_figures_truncate after truncate on applications
  for each statement execute function maillon_applications_lot_figures();--> statement-breakpoint
create trigger maillon_lot_sites_insert after insert on mission_batches referencing new table as new_rows
  for each statement execute function maillon_lot_sites();--> statement-breakpoint
create trigger maillon_lot_sites_update after update on mission_batches referencing old table as old_rows new table as new_rows
  for each statement execute function maillon_lot_sites();--> statement-breakpoint
select maillon_rebuild_lot_listing();
