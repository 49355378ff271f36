-- The lots' bounding boxes were the pre-filter of the distance rings of decision 025; lot_sites (0017) replaced them.
DROP INDEX "mission_batches_geo_box_idx";
--> statement-breakpoint
-- The number of open lots (visible, not completed, not the system lot) of each department, kept in row_counts under
-- table_name 'open_lot_departments' (docs/decisions/030): « Trouver des missions » filtered by a department reads its
-- total there instead of counting the department's lots. Statement-level triggers on mission_batches, as those of
-- 0015: one aggregated upsert per statement, keys in sorted order, in the writer's transaction. A lot counts once per
-- department it names.
-- One function per event: each has the transition tables of its own event only.
create or replace function maillon_count_open_lot_departments_insert() returns trigger
language plpgsql as $$
begin
  insert into row_counts as c (table_name, key, n)
  select 'open_lot_departments', k, count(*) from new_rows r cross join lateral (select distinct k from unnest(r.departments) k) d
  where r.visibility = 'visible' and r.status <> 'completed' and not r.is_system
  group by k order by k
  on conflict (table_name, key) do update set n = c.n + excluded.n;
  return null;
end
$$;
--> statement-breakpoint
create or replace function maillon_count_open_lot_departments_delete() returns trigger
language plpgsql as $$
begin
  insert into row_counts as c (table_name, key, n)
  select 'open_lot_departments', k, -count(*) from old_rows r cross join lateral (select distinct k from unnest(r.departments) k) d
  where r.visibility = 'visible' and r.status <> 'completed' and not r.is_system
  group by k order by k
  on conflict (table_name, key) do update set n = c.n + excluded.n;
  return null;
end
$$;
--> statement-breakpoint
create or replace function maillon_count_open_lot_departments_truncate() returns trigger
language plpgsql as $$
begin
  delete from row_counts where table_name = 'open_lot_departments';
  return null;
end
$$;
--> statement-breakpoint
-- An update moves a lot out of the departments it named when it was open and into those it names when it is open.
create or replace function maillon_count_open_lot_departments_update() returns trigger
language plpgsql as $$
begin
  insert into row_counts as c (table_name, key, n)
  select 'open_lot_departments', k, sum(d) from (
    select d.k, 1 as d from new_rows r cross join lateral (select distinct k from unnest(r.departments) k) d
    where r.visibility = 'visible' and r.status <> 'completed' and not r.is_system
    union all
    select d.k, -1 from old_rows r cross join lateral (select distinct k from unnest(r.departments) k) d
    where r.visibility = 'visible' and r.status <> 'completed' and not r.is_system
  ) changed
  group by k having sum(d) <> 0 order by k
  on conflict (table_name, key) do update set n = c.n + excluded.n;
  return null;
end
$$;
--> statement-breakpoint
create trigger maillon_open_lot_departments_insert after insert on mission_batches referencing new table as new_rows
  for each statement execute function maillon_count_open_lot_departments_insert();--> statement-breakpoint
create trigger maillon_open_lot_departments_update after update on mission_batches referencing old table as old_rows new table as new_rows
  for each statement execute function maillon_count_open_lot_departments_update();--> statement-breakpoint
create trigger maillon_open_lot_departments_delete after delete on mission_batches referencing old table as old_rows
  for each statement execute function maillon_count_open_lot_departments_delete();--> statement-breakpoint
create trigger maillon_open_lot_departments_truncate after truncate on mission_batches
  for each statement execute function maillon_count_open_lot_departments_truncate();--> statement-breakpoint
-- lot_sites: a department named twice by a lot gives its sites once (as the filter and the count above see it).
create or replace function maillon_insert_lot_sites(ids uuid[]) returns void
language sql as $$
  insert into lot_sites (batch_id, department, created_at, site)
  select b.id, d.department, b.created_at, maillon_unit_point(s.lat, s.lon)
  from mission_batches b
  cross join lateral unnest(b.geo_site_lats, b.geo_site_lons) s(lat, lon)
  cross join lateral (select distinct department from unnest(case when cardinality(b.departments) = 0 then array[''] else b.departments end) department) d
  where b.id = any(ids) and b.visibility = 'visible' and b.status <> 'completed' and not b.is_system
    and s.lat is not null and s.lon is not null
$$;
--> statement-breakpoint
-- The first fill, and the repair of maillon_rebuild_lot_listing() (0017) counting them again.
create or replace function maillon_recount_open_lot_departments() returns void
language sql as $$
  delete from row_counts where table_name = 'open_lot_departments';
  insert into row_counts (table_name, key, n)
  select 'open_lot_departments', k, count(*) from mission_batches r cross join lateral (select distinct k from unnest(r.departments) k) d
  where r.visibility = 'visible' and r.status <> 'completed' and not r.is_system
  group by k;
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
  perform maillon_recount_open_lot_departments();
end
$$;
--> statement-breakpoint
select maillon_recount_open_lot_departments();
