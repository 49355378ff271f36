CREATE TABLE "mission_map_cells" (
	"level" smallint NOT NULL,
	"kind" text NOT NULL,
	"y" integer NOT NULL,
	"x" integer NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	"lat_sum" double precision DEFAULT 0 NOT NULL,
	"lon_sum" double precision DEFAULT 0 NOT NULL,
	"lat_sq_sum" double precision DEFAULT 0 NOT NULL,
	"lon_sq_sum" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "mission_map_cells_level_kind_y_x_pk" PRIMARY KEY("level","kind","y","x")
);
--> statement-breakpoint
-- The admin's map in groups (docs/decisions/041). A mission is on the map when it is placed (its own position or its
-- postal code's) and is « À trier » (no lot, draft or active) or in an active lot that is not the system's. Each one
-- counts in one cell per level (cell size 4° / 2^level, levels 0 to 8) with its position and its square added to the
-- cell's sums (a group is drawn at its missions' mean, and opens onto their spread: two standard deviations around it).
-- Adds `d` (1 or -1) of each placed mission to its cells, keys in sorted order (two writers lock cells in the same
-- order); a mission moved within a cell changes its sums only; a cell back to zero missions has its sums reset (no
-- rounding left over).
create or replace function maillon_map_cells_add(lats float8[], lons float8[], kinds text[], ds int[]) returns void
language sql as $$
  insert into mission_map_cells as c (level, kind, y, x, n, lat_sum, lon_sum, lat_sq_sum, lon_sq_sum)
  select l.level, m.kind, floor(m.lat * 2 ^ l.level / 4)::int, floor(m.lon * 2 ^ l.level / 4)::int,
    sum(m.d), sum(m.d * m.lat), sum(m.d * m.lon), sum(m.d * m.lat * m.lat), sum(m.d * m.lon * m.lon)
  from unnest(lats, lons, kinds, ds) as m (lat, lon, kind, d)
  cross join generate_series(0, 8) as l (level)
  group by 1, 2, 3, 4
  having sum(m.d) <> 0 or sum(m.d * m.lat) <> 0 or sum(m.d * m.lon) <> 0
  order by 1, 2, 3, 4
  on conflict (level, kind, y, x) do update set
    n = c.n + excluded.n,
    lat_sum = case when c.n + excluded.n = 0 then 0 else c.lat_sum + excluded.lat_sum end,
    lon_sum = case when c.n + excluded.n = 0 then 0 else c.lon_sum + excluded.lon_sum end,
    lat_sq_sum = case when c.n + excluded.n = 0 then 0 else c.lat_sq_sum + excluded.lat_sq_sum end,
    lon_sq_sum = case when c.n + excluded.n = 0 then 0 else c.lon_sq_sum + excluded.lon_sq_sum end
$$;
--> statement-breakpoint
-- The placed missions on the map among `source` (rows of missions with a column d, 1 or -1) as the four arrays
-- maillon_map_cells_add takes: the statement's text, run with EXECUTE by the missions' trigger (a trigger's transition
-- tables are visible to it) and by the recount.
create or replace function maillon_map_cells_changes(source text) returns text
language sql immutable as $$
  select format($q$
    select array_agg(coalesce(r.latitude, r.approx_latitude)), array_agg(coalesce(r.longitude, r.approx_longitude)),
      array_agg(case when r.batch_id is null then 'unsorted' else 'lot' end), array_agg(r.d)
    from (%s) r left join mission_batches b on b.id = r.batch_id
    where coalesce(r.latitude, r.approx_latitude) is not null and coalesce(r.longitude, r.approx_longitude) is not null
      and ((r.batch_id is null and r.status in ('draft', 'active')) or (b.status = 'active' and not b.is_system))$q$, source)
$$;
--> statement-breakpoint
-- Missions written: the placed missions on the map before the statement leave their cells, those after it enter theirs.
-- A lot's state is read after locking the lots involved (for share, in id order): a lot's status changed by another
-- transaction is committed before, or waits for this one (then its own trigger sees these missions).
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
-- Lots entering the map (d = 1: made active) or leaving it (d = -1): their placed missions enter or leave their cells
-- as missions of a lot, whatever the lot's state now.
create or replace function maillon_map_cells_move_lots(ids uuid[], ds int[]) returns void
language plpgsql as $$
declare
  lats float8[];
  lons float8[];
  kinds text[];
  moved int[];
begin
  select array_agg(coalesce(m.latitude, m.approx_latitude)), array_agg(coalesce(m.longitude, m.approx_longitude)), array_agg('lot'::text), array_agg(c.d)
    into lats, lons, kinds, moved
  from unnest(ids, ds) as c (id, d)
  join missions m on m.batch_id = c.id
  where coalesce(m.latitude, m.approx_latitude) is not null and coalesce(m.longitude, m.approx_longitude) is not null;
  if lats is not null then
    perform maillon_map_cells_add(lats, lons, kinds, moved);
  end if;
end
$$;
--> statement-breakpoint
-- Lots whose status or system flag changed: their placed missions enter or leave the map.
create or replace function maillon_map_cells_lots() returns trigger
language plpgsql as $$
declare
  ids uuid[];
  ds int[];
begin
  select array_agg(n.id), array_agg(case when n.status = 'active' and not n.is_system then 1 else -1 end)
    into ids, ds
  from new_rows n join old_rows o on o.id = n.id
  where (n.status = 'active' and not n.is_system) <> (o.status = 'active' and not o.is_system);
  if ids is not null then
    perform maillon_map_cells_move_lots(ids, ds);
  end if;
  return null;
end
$$;
--> statement-breakpoint
-- A lot deleted: its missions leave it before the foreign key sets their lot to null (they then enter as « À trier »
-- if draft or active; the lot is gone when their own trigger looks for it).
create or replace function maillon_map_cells_lot_deleted() returns trigger
language plpgsql as $$
begin
  if old.status = 'active' and not old.is_system then
    perform maillon_map_cells_move_lots(array[old.id], array[-1]);
  end if;
  return old;
end
$$;
--> statement-breakpoint
-- Refills every cell from the missions (this migration's first fill; also a repair after writes made with the triggers
-- disabled). Locks missions and lots against writes while it counts.
create or replace function maillon_recount_map_cells() returns void
language plpgsql as $$
declare
  lats float8[];
  lons float8[];
  kinds text[];
  ds int[];
begin
  lock table missions, mission_batches in share mode;
  delete from mission_map_cells;
  execute maillon_map_cells_changes('select *, 1 as d from missions') into lats, lons, kinds, ds;
  if lats is not null then
    perform maillon_map_cells_add(lats, lons, kinds, ds);
  end if;
end
$$;
--> statement-breakpoint
create trigger maillon_map_cells_insert after insert on missions referencing new table as new_rows
  for each statement execute function maillon_map_cells_missions();--> statement-breakpoint
create trigger maillon_map_cells_update after update on missions referencing old table as old_rows new table as new_rows
  for each statement execute function maillon_map_cells_missions();--> statement-breakpoint
create trigger maillon_map_cells_delete after delete on missions referencing old table as old_rows
  for each statement execute function maillon_map_cells_missions();--> statement-breakpoint
create trigger maillon_map_cells_truncate after truncate on missions
  for each statement execute function maillon_map_cells_missions();--> statement-breakpoint
create trigger maillon_map_cells_lots after update on mission_batches referencing old table as old_rows new table as new_rows
  for each statement execute function maillon_map_cells_lots();--> statement-breakpoint
create trigger maillon_map_cells_lot_deleted before delete on mission_batches
  for each row execute function maillon_map_cells_lot_deleted();--> statement-breakpoint
select maillon_recount_map_cells();
