CREATE TABLE "lot_markers" (
	"batch_id" uuid PRIMARY KEY NOT NULL,
	"point" "cube" NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"departments" text[] NOT NULL,
	"tags" text[] NOT NULL,
	"marker" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lot_markers" ADD CONSTRAINT "lot_markers_batch_id_mission_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."mission_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The map's walk reads the index only: the point, and in INCLUDE the filters, the lot and the marker (docs/decisions/036).
CREATE INDEX "lot_markers_point_idx" ON "lot_markers" USING gist ("point") INCLUDE ("batch_id", "departments", "tags", "marker");--> statement-breakpoint
CREATE INDEX "mission_batches_open_unlocated_idx" ON "mission_batches" USING btree ("created_at") WHERE visibility = 'visible' and status <> 'completed' and not is_system and geo_site_count = 0;
--> statement-breakpoint
-- The map's markers of the lots `ids` that are open with a located site: the mean point of their sites on the unit
-- sphere, their filters and the marker's JSON (the AvailableLotsMap lot: id, title, lat, lon, approximate).
create or replace function maillon_insert_lot_markers(ids uuid[]) returns void
language sql as $$
  insert into lot_markers (batch_id, point, created_at, departments, tags, marker)
  select b.id, maillon_unit_point(b.geo_lat, b.geo_lon), b.created_at, b.departments, b.tags,
    json_build_object('id', b.id, 'title', b.title, 'lat', b.geo_lat, 'lon', b.geo_lon, 'approximate', b.geo_approximate_count >= b.geo_site_count)::text
  from mission_batches b
  where b.id = any(ids) and b.visibility = 'visible' and b.status <> 'completed' and not b.is_system
    and b.geo_site_count > 0 and b.geo_lat is not null and b.geo_lon is not null
$$;
--> statement-breakpoint
-- In the writer's statement: a new lot, or a lot whose marker, filters or openness changed (a lot's figures, written
-- on every application, do not touch its marker). A deleted lot's marker goes with it (foreign key, cascade).
create or replace function maillon_lot_markers() returns trigger
language plpgsql as $$
declare
  changed uuid[];
begin
  if TG_OP = 'INSERT' then
    perform maillon_insert_lot_markers(array(select id from new_rows));
  elsif TG_OP = 'UPDATE' then
    changed := array(
      select n.id from old_rows o join new_rows n on n.id = o.id
      where (o.visibility, o.status, o.is_system, o.title, o.departments, o.tags, o.created_at, o.geo_lat, o.geo_lon, o.geo_site_count, o.geo_approximate_count)
        is distinct from (n.visibility, n.status, n.is_system, n.title, n.departments, n.tags, n.created_at, n.geo_lat, n.geo_lon, n.geo_site_count, n.geo_approximate_count));
    if cardinality(changed) > 0 then
      delete from lot_markers where batch_id = any(changed);
      perform maillon_insert_lot_markers(changed);
    end if;
  end if;
  return null;
end
$$;
--> statement-breakpoint
create trigger maillon_lot_markers_insert after insert on mission_batches referencing new table as new_rows
  for each statement execute function maillon_lot_markers();--> statement-breakpoint
create trigger maillon_lot_markers_update after update on mission_batches referencing old table as old_rows new table as new_rows
  for each statement execute function maillon_lot_markers();--> statement-breakpoint
-- The filters of « Trouver des missions » (docs/decisions/036): the tags of the open lots are kept in row_counts under
-- table_name 'open_lot_tags' as their departments are under 'open_lot_departments' (0019), by the same statement-level
-- triggers, now counting both in one upsert per statement (keys in sorted order, in the writer's transaction). The
-- filters then read the keys with a count above zero (an index range of row_counts) instead of unnesting every open lot.
alter function maillon_count_open_lot_departments_insert() rename to maillon_count_open_lot_filters_insert;--> statement-breakpoint
alter function maillon_count_open_lot_departments_update() rename to maillon_count_open_lot_filters_update;--> statement-breakpoint
alter function maillon_count_open_lot_departments_delete() rename to maillon_count_open_lot_filters_delete;--> statement-breakpoint
alter function maillon_count_open_lot_departments_truncate() rename to maillon_count_open_lot_filters_truncate;--> statement-breakpoint
alter trigger maillon_open_lot_departments_insert on mission_batches rename to maillon_open_lot_filters_insert;--> statement-breakpoint
alter trigger maillon_open_lot_departments_update on mission_batches rename to maillon_open_lot_filters_update;--> statement-breakpoint
alter trigger maillon_open_lot_departments_delete on mission_batches rename to maillon_open_lot_filters_delete;--> statement-breakpoint
alter trigger maillon_open_lot_departments_truncate on mission_batches rename to maillon_open_lot_filters_truncate;--> statement-breakpoint
-- The keys of the open lots among `r` (a transition table): each department and each tag a lot names, once per lot.
create or replace function maillon_count_open_lot_filters_insert() returns trigger
language plpgsql as $$
begin
  insert into row_counts as c (table_name, key, n)
  select t, k, count(*) from (
    select 'open_lot_departments' as t, d.k from new_rows r cross join lateral (select distinct k from unnest(r.departments) k) d
    where r.visibility = 'visible' and r.status <> 'completed' and not r.is_system
    union all
    select 'open_lot_tags', g.k from new_rows r cross join lateral (select distinct k from unnest(r.tags) k) g
    where r.visibility = 'visible' and r.status <> 'completed' and not r.is_system
  ) named
  group by t, k order by t, k
  on conflict (table_name, key) do update set n = c.n + excluded.n;
  return null;
end
$$;
--> statement-breakpoint
create or replace function maillon_count_open_lot_filters_delete() returns trigger
language plpgsql as $$
begin
  insert into row_counts as c (table_name, key, n)
  select t, k, -count(*) from (
    select 'open_lot_departments' as t, d.k from old_rows r cross join lateral (select distinct k from unnest(r.departments) k) d
    where r.visibility = 'visible' and r.status <> 'completed' and not r.is_system
    union all
    select 'open_lot_tags', g.k from old_rows r cross join lateral (select distinct k from unnest(r.tags) k) g
    where r.visibility = 'visible' and r.status <> 'completed' and not r.is_system
  ) named
  group by t, k order by t, k
  on conflict (table_name, key) do update set n = c.n + excluded.n;
  return null;
end
$$;
--> statement-breakpoint
create or replace function maillon_count_open_lot_filters_truncate() returns trigger
language plpgsql as $$
begin
  delete from row_counts where table_name in ('open_lot_departments', 'open_lot_tags');
  return null;
end
$$;
--> statement-breakpoint
create or replace function maillon_count_open_lot_filters_update() returns trigger
language plpgsql as $$
begin
  insert into row_counts as c (table_name, key, n)
  select t, k, sum(d) from (
    select 'open_lot_departments' as t, x.k, 1 as d from new_rows r cross join lateral (select distinct k from unnest(r.departments) k) x
    where r.visibility = 'visible' and r.status <> 'completed' and not r.is_system
    union all
    select 'open_lot_departments', x.k, -1 from old_rows r cross join lateral (select distinct k from unnest(r.departments) k) x
    where r.visibility = 'visible' and r.status <> 'completed' and not r.is_system
    union all
    select 'open_lot_tags', x.k, 1 from new_rows r cross join lateral (select distinct k from unnest(r.tags) k) x
    where r.visibility = 'visible' and r.status <> 'completed' and not r.is_system
    union all
    select 'open_lot_tags', x.k, -1 from old_rows r cross join lateral (select distinct k from unnest(r.tags) k) x
    where r.visibility = 'visible' and r.status <> 'completed' and not r.is_system
  ) changed
  group by t, k having sum(d) <> 0 order by t, k
  on conflict (table_name, key) do update set n = c.n + excluded.n;
  return null;
end
$$;
--> statement-breakpoint
-- The first fill, and the repair of maillon_rebuild_lot_listing() counting them again.
drop function maillon_recount_open_lot_departments();--> statement-breakpoint
create or replace function maillon_recount_open_lot_filters() returns void
language sql as $$
  delete from row_counts where table_name in ('open_lot_departments', 'open_lot_tags');
  insert into row_counts (table_name, key, n)
  select t, k, count(*) from (
    select 'open_lot_departments' as t, d.k from mission_batches r cross join lateral (select distinct k from unnest(r.departments) k) d
    where r.visibility = 'visible' and r.status <> 'completed' and not r.is_system
    union all
    select 'open_lot_tags', g.k from mission_batches r cross join lateral (select distinct k from unnest(r.tags) k) g
    where r.visibility = 'visible' and r.status <> 'completed' and not r.is_system
  ) named
  group by t, k;
$$;
--> statement-breakpoint
create or replace function maillon_rebuild_lot_listing() returns void
language plpgsql as $$
begin
  lock table mission_batches in share row exclusive mode;
  perform maillon_refresh_lot_missions(array(select id from mission_batches));
  perform maillon_refresh_lot_applications(array(select id from mission_batches));
  delete from lot_sites;
  perform maillon_insert_lot_sites(array(select id from mission_batches));
  delete from lot_markers;
  perform maillon_insert_lot_markers(array(select id from mission_batches));
  perform maillon_recount_open_lot_filters();
end
$$;
--> statement-breakpoint
select maillon_recount_open_lot_filters();--> statement-breakpoint
select maillon_insert_lot_markers(array(select id from mission_batches));
