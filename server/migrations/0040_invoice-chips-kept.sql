-- The chips of « Factures & virements » counted by the database (decision 051): each invoice knows whether one of its
-- transfers is « Effectué » (kept by a trigger on transfers), and row_counts keys a paid invoice `<status>.paid`, so the
-- four chips read a few kept rows instead of counting every invoice against a hash of the paid transfers.
LOCK TABLE "invoices", "transfers" IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "has_paid_transfer" boolean DEFAULT false NOT NULL;--> statement-breakpoint
create or replace function maillon_invoice_paid() returns trigger
language plpgsql as $$
declare
  ids uuid[];
begin
  if TG_OP = 'TRUNCATE' then
    update invoices set has_paid_transfer = false where has_paid_transfer;
    return null;
  end if;
  -- One statement per operation: a transition table exists only for the operations that have it.
  if TG_OP = 'INSERT' then
    select array_agg(distinct invoice_id) into ids from new_rows where invoice_id is not null;
  elsif TG_OP = 'DELETE' then
    select array_agg(distinct invoice_id) into ids from old_rows where invoice_id is not null;
  else
    select array_agg(distinct invoice_id) into ids
      from (select invoice_id from new_rows union select invoice_id from old_rows) changed where invoice_id is not null;
  end if;
  if ids is null then
    return null;
  end if;
  -- The invoices locked first (in one order): the next statement takes a new snapshot, which sees every transfer
  -- committed by a transaction that held them. `no key update`, the lock the update takes anyway: a transfer written
  -- for the invoice holds `key share` on it (its foreign key), which `for update` would wait for (a deadlock between two
  -- transfers of one invoice).
  perform 1 from invoices where id = any(ids) order by id for no key update;
  update invoices i set has_paid_transfer = p.paid
    from (select x.id, exists (select 1 from transfers t where t.invoice_id = x.id and t.status = 'Effectué') as paid
      from unnest(ids) x(id)) p
    where i.id = p.id and i.has_paid_transfer <> p.paid;
  return null;
end
$$;--> statement-breakpoint
create trigger maillon_invoice_paid_insert after insert on transfers referencing new table as new_rows
  for each statement execute function maillon_invoice_paid();--> statement-breakpoint
create trigger maillon_invoice_paid_update after update on transfers referencing old table as old_rows new table as new_rows
  for each statement execute function maillon_invoice_paid();--> statement-breakpoint
create trigger maillon_invoice_paid_delete after delete on transfers referencing old table as old_rows
  for each statement execute function maillon_invoice_paid();--> statement-breakpoint
create trigger maillon_invoice_paid_truncate after truncate on transfers
  for each statement execute function maillon_invoice_paid();--> statement-breakpoint
update invoices i set has_paid_transfer = true
  where exists (select 1 from transfers t where t.invoice_id = i.id and t.status = 'Effectué');--> statement-breakpoint
-- The counted tables and the key of each row (lib/row-counts.ts reads these keys): the invoices' key gains `.paid`.
-- The transfers come before the invoices: maillon_recount_rows locks the tables in this order, the order a transfer's
-- write takes them in (the transfer, then its invoice by the trigger above), so a recount cannot deadlock with one.
create or replace function maillon_row_count_keys() returns table (table_name text, keyed text)
language sql immutable as $$
  values
    ('jobs', $k$r.status$k$),
    ('missions', $k$r.status || case when r.batch_id is null then '.unsorted' else '.lot' end$k$),
    ('mission_batches', $k$r.status || '.' || r.visibility || case when r.is_system then '.system' else '' end$k$),
    ('technicians', $k$r.status$k$),
    ('transfers', $k$r.status$k$),
    ('invoices', $k$r.status || case when r.has_paid_transfer then '.paid' else '' end$k$),
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
  for t in select * from maillon_row_count_keys() k where k.table_name = 'invoices' loop
    execute 'drop trigger if exists maillon_count_rows_insert on invoices';
    execute 'drop trigger if exists maillon_count_rows_update on invoices';
    execute 'drop trigger if exists maillon_count_rows_delete on invoices';
    execute 'drop trigger if exists maillon_count_rows_truncate on invoices';
    execute format('create trigger maillon_count_rows_insert after insert on %I referencing new table as new_rows '
      || 'for each statement execute function maillon_count_rows(%L)', t.table_name, t.keyed);
    execute format('create trigger maillon_count_rows_update after update on %I referencing old table as old_rows new table as new_rows '
      || 'for each statement execute function maillon_count_rows(%L)', t.table_name, t.keyed);
    execute format('create trigger maillon_count_rows_delete after delete on %I referencing old table as old_rows '
      || 'for each statement execute function maillon_count_rows(%L)', t.table_name, t.keyed);
    execute format('create trigger maillon_count_rows_truncate after truncate on %I '
      || 'for each statement execute function maillon_count_rows(%L)', t.table_name, t.keyed);
    delete from row_counts where row_counts.table_name = 'invoices';
    execute format('insert into row_counts (table_name, key, n) select %L, k, count(*) from (select %s as k from %I r) x group by k',
      t.table_name, t.keyed, t.table_name);
  end loop;
end
$$;
