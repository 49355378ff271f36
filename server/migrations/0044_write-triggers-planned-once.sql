-- Write triggers planned once a connection (decision 062). maillon_count_rows (migration 0015) built its statement
-- from the table's key on every call and ran it with EXECUTE, which PostgreSQL plans again each time: about 0.3 ms of
-- every write to a counted table, and once more for each lot a write touches. Each counted table now has its own
-- function, written from the same key (maillon_row_count_keys) with its statement in the body, which PL/pgSQL plans
-- once a connection. The triggers keep their names. A table counted later runs maillon_install_count_rows() again.
create or replace function maillon_install_count_rows() returns void
language plpgsql as $install$
declare
  t record;
  counted text;
begin
  for t in select * from maillon_row_count_keys() loop
    counted := 'maillon_count_rows_' || t.table_name;
    -- Keys in sorted order (two writers lock counter rows in the same order), in the writer's transaction.
    execute format($f$
      create or replace function %1$I() returns trigger
      language plpgsql as $body$
      begin
        if TG_OP = 'INSERT' then
          insert into row_counts as c (table_name, key, n)
          select %2$L, k, count(*) from (select %3$s as k from new_rows r) x group by k order by k
          on conflict (table_name, key) do update set n = c.n + excluded.n;
        elsif TG_OP = 'DELETE' then
          insert into row_counts as c (table_name, key, n)
          select %2$L, k, -count(*) from (select %3$s as k from old_rows r) x group by k order by k
          on conflict (table_name, key) do update set n = c.n + excluded.n;
        elsif TG_OP = 'UPDATE' then
          insert into row_counts as c (table_name, key, n)
          select %2$L, k, sum(d) from (select %3$s as k, 1 as d from new_rows r union all select %3$s, -1 from old_rows r) x
          group by k having sum(d) <> 0 order by k
          on conflict (table_name, key) do update set n = c.n + excluded.n;
        else -- TRUNCATE
          delete from row_counts where table_name = %2$L;
        end if;
        return null;
      end
      $body$
    $f$, counted, t.table_name, t.keyed);
    execute format('drop trigger if exists maillon_count_rows_insert on %I', t.table_name);
    execute format('drop trigger if exists maillon_count_rows_update on %I', t.table_name);
    execute format('drop trigger if exists maillon_count_rows_delete on %I', t.table_name);
    execute format('drop trigger if exists maillon_count_rows_truncate on %I', t.table_name);
    execute format('create trigger maillon_count_rows_insert after insert on %I referencing new table as new_rows '
      || 'for each statement execute function %I()', t.table_name, counted);
    execute format('create trigger maillon_count_rows_update after update on %I referencing old table as old_rows new table as new_rows '
      || 'for each statement execute function %I()', t.table_name, counted);
    execute format('create trigger maillon_count_rows_delete after delete on %I referencing old table as old_rows '
      || 'for each statement execute function %I()', t.table_name, counted);
    execute format('create trigger maillon_count_rows_truncate after truncate on %I '
      || 'for each statement execute function %I()', t.table_name, counted);
  end loop;
end
$install$;
--> statement-breakpoint
select maillon_install_count_rows();
--> statement-breakpoint
drop function maillon_count_rows();
--> statement-breakpoint
-- The map's cells (migration 0034) for an update that moves no mission on the map: no mission changed its position,
-- its lot or its status, so no cell changes. That is most updates (a device toggled, the observations edited); they
-- no longer lock the lots or build the two EXECUTEd statements.
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
      select 1 from new_rows n left join old_rows o on o.id = n.id
      where o.id is null
        or (n.latitude, n.longitude, n.approx_latitude, n.approx_longitude, n.batch_id, n.status)
          is distinct from (o.latitude, o.longitude, o.approx_latitude, o.approx_longitude, o.batch_id, o.status)
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
-- Expéditions' lot versions (migration 0043): the same statement, in PL/pgSQL so that it is planned once a connection
-- (a `language sql` function called from a trigger is planned at every call), and nothing at all when no lot moved.
create or replace function maillon_parts_kept_changed(ids uuid[]) returns void
language plpgsql as $$
begin
  if coalesce(cardinality(ids), 0) = 0 then
    return;
  end if;
  -- In one order, so two writes of the same lots cannot lock them crosswise. A lot deleted meanwhile is skipped (its
  -- kept row goes with it).
  insert into lot_parts_kept (batch_id, version)
  select l.id, 1 from (select distinct unnest(ids) as id) l
  where l.id is not null and exists (select 1 from mission_batches b where b.id = l.id)
  order by l.id
  on conflict (batch_id) do update set version = lot_parts_kept.version + 1;
end
$$;
