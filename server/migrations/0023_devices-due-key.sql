-- The devices already within the badge's window counted under one key (docs/decisions/034). Until now a device was
-- counted under its attention date and the Parc DAE badge summed every date up to today + 30 days: a range that grows by
-- a key for every day of history (devices left unserviced keep their old dates), 90 keys in the scale seed, the slowest
-- part of the admin badges' statement. Now a device whose date is, when it is written, on or before today + 30 days in
-- France is counted under `due`; a later date keeps its day. The badge reads `due`, `out` and the days from today + 30
-- days back: dates that entered the window since they were written, which maillon_fold_due_devices() (run every hour by
-- the scheduler) moves into `due`. The count is exact whether the fold has run or not: a date key and `due` are summed
-- alike, and `due` only holds dates within the window of the day it was written (a window only moves forward).
-- 30 is ATTENTION_WINDOW_DAYS (common/src/device-rules.ts); row-counts.test.ts checks both sides of the window's edge.
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
        r.next_maintenance_due), 'YYYY-MM-DD'), 'none') end$k$)
$$;
--> statement-breakpoint
-- The devices' counting triggers carry the key expression as their argument: created again with the new one, and the
-- devices counted again under the new keys.
do $$
declare
  t record;
begin
  lock table devices in share mode;
  drop trigger maillon_count_rows_insert on devices;
  drop trigger maillon_count_rows_update on devices;
  drop trigger maillon_count_rows_delete on devices;
  drop trigger maillon_count_rows_truncate on devices;
  for t in select * from maillon_row_count_keys() k where k.table_name = 'devices' loop
    execute format('create trigger maillon_count_rows_insert after insert on %I referencing new table as new_rows '
      || 'for each statement execute function maillon_count_rows(%L)', t.table_name, t.keyed);
    execute format('create trigger maillon_count_rows_update after update on %I referencing old table as old_rows new table as new_rows '
      || 'for each statement execute function maillon_count_rows(%L)', t.table_name, t.keyed);
    execute format('create trigger maillon_count_rows_delete after delete on %I referencing old table as old_rows '
      || 'for each statement execute function maillon_count_rows(%L)', t.table_name, t.keyed);
    execute format('create trigger maillon_count_rows_truncate after truncate on %I '
      || 'for each statement execute function maillon_count_rows(%L)', t.table_name, t.keyed);
    delete from row_counts where row_counts.table_name = 'devices';
    execute format('insert into row_counts (table_name, key, n) select %L, k, count(*) from (select %s as k from %I r) x group by k',
      t.table_name, t.keyed, t.table_name);
  end loop;
end
$$;
--> statement-breakpoint
-- Moves the counts of the days up to `through` (today + 30 days in France by default) into `due`; returns how many
-- day keys it folded. The rows are locked in key order first, the order in which the counting triggers upsert their
-- keys (dates, then `due`): a fold and a device's write wait for each other, never deadlock. A device written after
-- the fold under a folded day (its old date, on its way out) writes that day's key again, negative, which the badge
-- sums with the rest and the next fold moves too.
create or replace function maillon_fold_due_devices(through text default null) returns integer
language plpgsql as $$
declare
  last_day text := coalesce(through, to_char((now() at time zone 'Europe/Paris')::date + 30, 'YYYY-MM-DD'));
  moved bigint;
  folded integer;
begin
  perform 1 from row_counts where table_name = 'devices' and key >= '0' and key <= last_day order by key for update;
  with gone as (
    delete from row_counts where table_name = 'devices' and key >= '0' and key <= last_day returning n
  )
  select coalesce(sum(n), 0), count(*) into moved, folded from gone;
  if folded > 0 then
    insert into row_counts as c (table_name, key, n) values ('devices', 'due', moved)
      on conflict (table_name, key) do update set n = c.n + excluded.n;
  end if;
  return folded;
end
$$;
