-- Write triggers that stay linear in the rows a statement writes, whatever plan their connection kept (decision 064).
--
-- A PL/pgSQL statement is planned once a connection (migration 0044 made every trigger so), and a transition table has
-- no statistics: the plan is made for the row counts of the first call and kept. The triggers paired each old row with
-- its new one by a join (`old_rows o join new_rows n on n.id = o.id`). After a one-row update, which is most of the
-- app's writes, that plan is a nested loop, and a later update of 5 000 missions on the same connection compared every
-- old row with every new one: 68 s, 55 s of them in the lots' figures. The map cells' early return (0044) asked
-- `not exists (…)`, for which the planner always chose the nested loop: the scale seed's devices step never ended.
--
-- Now no trigger joins two transition tables:
-- - the rows that changed are a set difference or a grouping of the two tables (hashed or sorted, each side read once:
--   an old row unchanged is equal to its new one, `except`/`union` comparing as `is distinct from` does);
-- - a transition table is joined to a table of the database through a lateral subquery (`offset 0`, so that it is not
--   flattened into a join): an index probe per row, instead of a plan that a first large call could make a hash join
--   reading the whole table for every later one-row write.
-- Each trigger writes what it wrote before. The missions' trigger of the lots' figures (0017, 0041) is written the same
-- way by migration 0048, which also has it watch the fields of the lot's missions' JSON.

-- The map's cells (0034, 0044): any mission whose position, lot or status changed.
create or replace function maillon_map_cells_missions() returns trigger
language plpgsql as $$
declare
  source text;
  lats float8[];
  lons float8[];
  kinds text[];
  ds int[];
begin
  if TG_OP = 'TRUNCATE' then
    delete from mission_map_cells;
    return null;
  end if;
  -- Nested: an insert's or a delete's trigger has no old_rows or no new_rows to name.
  if TG_OP = 'UPDATE' then
    if not exists (
      select n.id, n.latitude, n.longitude, n.approx_latitude, n.approx_longitude, n.batch_id, n.status from new_rows n
      except
      select o.id, o.latitude, o.longitude, o.approx_latitude, o.approx_longitude, o.batch_id, o.status from old_rows o
    ) then
      return null;
    end if;
  end if;
  source := case TG_OP
    when 'INSERT' then 'select *, 1 as d from new_rows'
    when 'DELETE' then 'select *, -1 as d from old_rows'
    else 'select *, 1 as d from new_rows union all select *, -1 as d from old_rows'
  end;
  execute format('select 1 from mission_batches b where b.id in (select batch_id from (%s) r) order by b.id for share', source);
  execute maillon_map_cells_changes(source) into lats, lons, kinds, ds;
  if lats is not null then
    perform maillon_map_cells_add(lats, lons, kinds, ds);
  end if;
  return null;
end
$$;
--> statement-breakpoint
-- The map's cells of lots that became active or stopped being so (0034): grouped by lot, old and new side by side.
create or replace function maillon_map_cells_lots() returns trigger
language plpgsql as $$
declare
  ids uuid[];
  ds int[];
begin
  select array_agg(v.id), array_agg(case when v.now_active then 1 else -1 end)
    into ids, ds
  from (
    select r.id, bool_or(r.active) filter (where r.is_new) as now_active, bool_or(r.active) filter (where not r.is_new) as was_active
    from (
      select n.id, n.status = 'active' and not n.is_system as active, true as is_new from new_rows n
      union all
      select o.id, o.status = 'active' and not o.is_system, false from old_rows o
    ) r
    group by r.id
  ) v
  where v.now_active <> v.was_active;
  if ids is not null then
    perform maillon_map_cells_move_lots(ids, ds);
  end if;
  return null;
end
$$;
--> statement-breakpoint
-- A lot's figures from its applications (0017): the lots, before and after, of every application whose lot or status
-- changed.
create or replace function maillon_applications_lot_figures() returns trigger
language plpgsql as $$
begin
  if TG_OP = 'INSERT' then
    perform maillon_refresh_lot_applications(array(select batch_id from new_rows where batch_id is not null));
  elsif TG_OP = 'DELETE' then
    perform maillon_refresh_lot_applications(array(select batch_id from old_rows where batch_id is not null));
  elsif TG_OP = 'UPDATE' then
    perform maillon_refresh_lot_applications(array(
      select v.batch_id
      from (
        select v.batch_id, count(*) over (partition by v.id) as versions
        from (
          select id, batch_id, status from old_rows
          union
          select id, batch_id, status from new_rows
        ) v
      ) v
      where v.versions > 1 and v.batch_id is not null));
  else -- TRUNCATE
    update mission_batches set application_count = 0, has_recruit = false where application_count <> 0 or has_recruit;
  end if;
  return null;
end
$$;
--> statement-breakpoint
-- The map's markers of « Trouver des missions » (0030): the lots whose marker's fields changed.
create or replace function maillon_lot_markers() returns trigger
language plpgsql as $$
declare
  changed uuid[];
begin
  if TG_OP = 'INSERT' then
    perform maillon_insert_lot_markers(array(select id from new_rows));
  elsif TG_OP = 'UPDATE' then
    changed := array(
      select v.id
      from (
        select id, visibility, status, is_system, title, departments, tags, created_at, geo_lat, geo_lon, geo_site_count,
          geo_approximate_count
        from old_rows
        union
        select id, visibility, status, is_system, title, departments, tags, created_at, geo_lat, geo_lon, geo_site_count,
          geo_approximate_count
        from new_rows
      ) v
      group by v.id
      having count(*) > 1);
    if cardinality(changed) > 0 then
      delete from lot_markers where batch_id = any(changed);
      perform maillon_insert_lot_markers(changed);
    end if;
  end if;
  return null;
end
$$;
--> statement-breakpoint
-- The open lots' sites (0030): the lots whose sites' fields changed.
create or replace function maillon_lot_sites() returns trigger
language plpgsql as $$
declare
  changed uuid[];
begin
  if TG_OP = 'INSERT' then
    perform maillon_insert_lot_sites(array(select id from new_rows));
  elsif TG_OP = 'UPDATE' then
    changed := array(
      select v.id
      from (
        select id, visibility, status, is_system, departments, created_at, geo_site_lats, geo_site_lons from old_rows
        union
        select id, visibility, status, is_system, departments, created_at, geo_site_lats, geo_site_lons from new_rows
      ) v
      group by v.id
      having count(*) > 1);
    if cardinality(changed) > 0 then
      delete from lot_sites where batch_id = any(changed);
      perform maillon_insert_lot_sites(changed);
    end if;
  end if;
  return null;
end
$$;
--> statement-breakpoint
-- Expéditions' lot versions (0043, 0044): the lots, before and after, of every mission whose lot or device changed.
create or replace function maillon_parts_kept_missions() returns trigger
language plpgsql as $$
begin
  if TG_OP = 'INSERT' then
    perform maillon_parts_kept_changed(array(select batch_id from new_rows where batch_id is not null));
  elsif TG_OP = 'DELETE' then
    perform maillon_parts_kept_changed(array(select batch_id from old_rows where batch_id is not null));
  elsif TG_OP = 'UPDATE' then
    perform maillon_parts_kept_changed(array(
      select v.batch_id
      from (
        select v.batch_id, count(*) over (partition by v.id) as versions
        from (select id, batch_id, device_id from old_rows union select id, batch_id, device_id from new_rows) v
      ) v
      where v.versions > 1 and v.batch_id is not null));
  else -- TRUNCATE
    update lot_parts_kept set version = version + 1;
  end if;
  return null;
end
$$;
--> statement-breakpoint
-- Expéditions' lot versions: the lots of the missions of every device whose parts' fields changed.
create or replace function maillon_parts_kept_devices() returns trigger
language plpgsql as $$
begin
  if TG_OP = 'TRUNCATE' then
    update lot_parts_kept set version = version + 1;
  else
    perform maillon_parts_kept_changed(array(
      select m.batch_id
      from (
        select v.id
        from (
          select id, manufacturer, model, battery_expiry, adult_pads_expiry, pediatric_pads_present, pediatric_pads_expiry
          from old_rows
          union
          select id, manufacturer, model, battery_expiry, adult_pads_expiry, pediatric_pads_present, pediatric_pads_expiry
          from new_rows
        ) v
        group by v.id
        having count(*) > 1
      ) changed
      cross join lateral (select m.batch_id from missions m where m.device_id = changed.id and m.batch_id is not null offset 0) m));
  end if;
  return null;
end
$$;
--> statement-breakpoint
-- Expéditions' lot versions: the lots of the missions, before and after, of every progress record whose mission,
-- technician, date or completion changed.
create or replace function maillon_parts_kept_progress() returns trigger
language plpgsql as $$
begin
  if TG_OP = 'INSERT' then
    perform maillon_parts_kept_changed(array(
      select m.batch_id from new_rows r
      cross join lateral (select m.batch_id from missions m where m.id = r.mission_id and m.batch_id is not null offset 0) m));
  elsif TG_OP = 'DELETE' then
    perform maillon_parts_kept_changed(array(
      select m.batch_id from old_rows r
      cross join lateral (select m.batch_id from missions m where m.id = r.mission_id and m.batch_id is not null offset 0) m));
  elsif TG_OP = 'UPDATE' then
    perform maillon_parts_kept_changed(array(
      select m.batch_id
      from (
        select v.mission_id, count(*) over (partition by v.id) as versions
        from (
          select id, mission_id, technician_id, planned_visit_date, is_completed from old_rows
          union
          select id, mission_id, technician_id, planned_visit_date, is_completed from new_rows
        ) v
      ) v
      cross join lateral (select m.batch_id from missions m where m.id = v.mission_id and m.batch_id is not null offset 0) m
      where v.versions > 1));
  else -- TRUNCATE
    update lot_parts_kept set version = version + 1;
  end if;
  return null;
end
$$;
--> statement-breakpoint
-- Stale invitations (0045): a dated visit that is no longer one (its date cleared, moved to another mission or
-- technician, or deleted). The old dated rows that no new dated row matches.
create or replace function maillon_standing_progress() returns trigger
language plpgsql as $$
declare
  mission_ids uuid[];
  technician_ids uuid[];
begin
  if TG_OP = 'UPDATE' then
    select array_agg(gone.mission_id), array_agg(gone.technician_id) into mission_ids, technician_ids
    from (
      select id, mission_id, technician_id from old_rows where planned_visit_date is not null
      except
      select id, mission_id, technician_id from new_rows where planned_visit_date is not null
    ) gone;
  else -- DELETE
    select array_agg(o.mission_id), array_agg(o.technician_id) into mission_ids, technician_ids
    from old_rows o where o.planned_visit_date is not null;
  end if;
  perform maillon_standing_mark(mission_ids, technician_ids);
  return null;
end
$$;
--> statement-breakpoint
-- Stale invitations: a recruit who is no longer one (status, lot or technician changed, or deleted), for each mission of
-- the lot they were recruited on.
create or replace function maillon_standing_applications() returns trigger
language plpgsql as $$
declare
  mission_ids uuid[];
  technician_ids uuid[];
begin
  if TG_OP = 'UPDATE' then
    select array_agg(m.id), array_agg(gone.technician_id) into mission_ids, technician_ids
    from (
      select id, batch_id, technician_id from old_rows where status in ('Recruté', 'Terminé')
      except
      select id, batch_id, technician_id from new_rows where status in ('Recruté', 'Terminé')
    ) gone
    cross join lateral (select m.id from missions m where m.batch_id = gone.batch_id offset 0) m;
  else -- DELETE
    select array_agg(m.id), array_agg(o.technician_id) into mission_ids, technician_ids
    from old_rows o
    cross join lateral (select m.id from missions m where m.batch_id = o.batch_id offset 0) m
    where o.status in ('Recruté', 'Terminé');
  end if;
  perform maillon_standing_mark(mission_ids, technician_ids);
  return null;
end
$$;
--> statement-breakpoint
-- Stale invitations: a mission moved to another lot, or out of any.
create or replace function maillon_standing_missions() returns trigger
language plpgsql as $$
declare
  mission_ids uuid[];
begin
  select array_agg(moved.id) into mission_ids
  from (select id, batch_id from old_rows except select id, batch_id from new_rows) moved;
  perform maillon_standing_mark(mission_ids, array_fill(null::uuid, array[coalesce(cardinality(mission_ids), 0)]));
  return null;
end
$$;
