-- The readers of each learning resource are counted (decision 040): the admin library's reader counts read 50 kept rows
-- instead of grouping 100 000 views at full scale.
create or replace function maillon_row_count_keys() returns table (table_name text, keyed text)
language sql immutable as $$
  values
    ('jobs', $k$r.status$k$),
    ('missions', $k$r.status || case when r.batch_id is null then '.unsorted' else '.lot' end$k$),
    ('mission_batches', $k$r.status || '.' || r.visibility || case when r.is_system then '.system' else '' end$k$),
    ('technicians', $k$r.status$k$),
    ('invoices', $k$r.status$k$),
    ('transfers', $k$r.status$k$),
    ('shipments', $k$r.status$k$),
    ('learning_resources', $k$'all'$k$),
    -- A device's attention date: the earliest of its expiries and next maintenance (« Hors service » and removed devices
    -- apart), `due` when it is within today + 30 days in France.
    ('devices', $k$case when r.functional_state = 'Hors service' then 'out' when r.functional_state = 'Supprimé définitivement' then 'gone'
      when least(r.battery_expiry, r.adult_pads_expiry, case when r.pediatric_pads_present then r.pediatric_pads_expiry end, r.next_maintenance_due)
        <= (now() at time zone 'Europe/Paris')::date + 30 then 'due'
      else coalesce(to_char(least(r.battery_expiry, r.adult_pads_expiry, case when r.pediatric_pads_present then r.pediatric_pads_expiry end,
        r.next_maintenance_due), 'YYYY-MM-DD'), 'none') end$k$),
    ('applications', $k$r.status$k$),
    ('resource_views', $k$r.resource_id::text$k$)
$$;
--> statement-breakpoint
do $$
declare
  t record;
begin
  lock table resource_views in share mode;
  for t in select * from maillon_row_count_keys() k where k.table_name = 'resource_views' loop
    execute format('create trigger maillon_count_rows_insert after insert on %I referencing new table as new_rows '
      || 'for each statement execute function maillon_count_rows(%L)', t.table_name, t.keyed);
    execute format('create trigger maillon_count_rows_update after update on %I referencing old table as old_rows new table as new_rows '
      || 'for each statement execute function maillon_count_rows(%L)', t.table_name, t.keyed);
    execute format('create trigger maillon_count_rows_delete after delete on %I referencing old table as old_rows '
      || 'for each statement execute function maillon_count_rows(%L)', t.table_name, t.keyed);
    execute format('create trigger maillon_count_rows_truncate after truncate on %I '
      || 'for each statement execute function maillon_count_rows(%L)', t.table_name, t.keyed);
    delete from row_counts where row_counts.table_name = 'resource_views';
    execute format('insert into row_counts (table_name, key, n) select %L, k, count(*) from (select %s as k from %I r) x group by k',
      t.table_name, t.keyed, t.table_name);
  end loop;
end
$$;
