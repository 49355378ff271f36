CREATE TABLE "row_counts" (
	"table_name" text NOT NULL,
	"key" text NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "row_counts_table_name_key_pk" PRIMARY KEY("table_name","key")
);
--> statement-breakpoint
DROP INDEX "mission_batches_open_idx";--> statement-breakpoint
DROP INDEX "missions_batch_idx";--> statement-breakpoint
DROP INDEX "missions_status_idx";--> statement-breakpoint
CREATE INDEX "missions_created_idx" ON "missions" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "missions_unbatched_idx" ON "missions" USING btree ("created_at","id") WHERE batch_id is null;--> statement-breakpoint
CREATE INDEX "mission_batches_open_idx" ON "mission_batches" USING btree ("created_at","title" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE visibility = 'visible' and status <> 'completed' and not is_system;--> statement-breakpoint
CREATE INDEX "missions_batch_idx" ON "missions" USING btree ("batch_id","created_at","id");--> statement-breakpoint
CREATE INDEX "missions_status_idx" ON "missions" USING btree ("status","created_at","id");
--> statement-breakpoint
-- Row counts kept by the database (docs/decisions/027-fast-without-cache.md). Statement-level triggers with transition
-- tables: one aggregated upsert per statement, keys in sorted order (two writers lock counter rows in the same order),
-- in the writer's transaction (a rollback takes the counts back with the rows). TG_ARGV[0] is the key of a row `r`.
create or replace function maillon_count_rows() returns trigger
language plpgsql as $$
declare
  keyed text := TG_ARGV[0];
  changed text;
begin
  if TG_OP = 'TRUNCATE' then
    delete from row_counts where table_name = TG_TABLE_NAME;
    return null;
  end if;
  changed := case TG_OP
    when 'INSERT' then format('select %s as k, 1 as d from new_rows r', keyed)
    when 'DELETE' then format('select %s as k, -1 as d from old_rows r', keyed)
    else format('select %s as k, 1 as d from new_rows r union all select %s, -1 from old_rows r', keyed, keyed)
  end;
  execute format(
    'insert into row_counts as c (table_name, key, n) select %L, k, sum(d) from (%s) changed group by k having sum(d) <> 0 order by k '
      || 'on conflict (table_name, key) do update set n = c.n + excluded.n',
    TG_TABLE_NAME, changed);
  return null;
end
$$;
--> statement-breakpoint
-- The counted tables and the key of each row (lib/row-counts.ts reads these keys; COUNTED_TABLES lists the tables).
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
    -- A device's attention date: the earliest of its expiries and next maintenance; « Hors service » and removed
    -- devices apart. The admin badge sums the dates up to today + 30 days (a range of this table's primary key).
    ('devices', $k$case when r.functional_state = 'Hors service' then 'out' when r.functional_state = 'Supprimé définitivement' then 'gone'
      else coalesce(to_char(least(r.battery_expiry, r.adult_pads_expiry, case when r.pediatric_pads_present then r.pediatric_pads_expiry end,
        r.next_maintenance_due), 'YYYY-MM-DD'), 'none') end$k$)
$$;
--> statement-breakpoint
-- Recounts every counted table from its rows (the migration's first fill; also a repair after writes made with the
-- triggers disabled). Locks the counted tables against writes while it counts.
create or replace function maillon_recount_rows() returns void
language plpgsql as $$
declare
  t record;
begin
  for t in select * from maillon_row_count_keys() loop
    execute format('lock table %I in share mode', t.table_name);
    delete from row_counts where row_counts.table_name = t.table_name;
    execute format('insert into row_counts (table_name, key, n) select %L, k, count(*) from (select %s as k from %I r) x group by k',
      t.table_name, t.keyed, t.table_name);
  end loop;
end
$$;
--> statement-breakpoint
do $$
declare
  t record;
begin
  for t in select * from maillon_row_count_keys() loop
    execute format('create trigger maillon_count_rows_insert after insert on %I referencing new table as new_rows '
      || 'for each statement execute function maillon_count_rows(%L)', t.table_name, t.keyed);
    execute format('create trigger maillon_count_rows_update after update on %I referencing old table as old_rows new table as new_rows '
      || 'for each statement execute function maillon_count_rows(%L)', t.table_name, t.keyed);
    execute format('create trigger maillon_count_rows_delete after delete on %I referencing old table as old_rows '
      || 'for each statement execute function maillon_count_rows(%L)', t.table_name, t.keyed);
    execute format('create trigger maillon_count_rows_truncate after truncate on %I '
      || 'for each statement execute function maillon_count_rows(%L)', t.table_name, t.keyed);
  end loop;
  perform maillon_recount_rows();
end
$$;
