CREATE TABLE "lot_parts_kept" (
	"batch_id" uuid PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"kept_version" bigint,
	"kept_key" text,
	"item_count" integer DEFAULT 0 NOT NULL,
	"to_check_count" integer DEFAULT 0 NOT NULL,
	"first_visit_day" text
);
--> statement-breakpoint
ALTER TABLE "lot_parts_kept" ADD CONSTRAINT "lot_parts_kept_batch_id_mission_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."mission_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Expéditions' figures kept per lot (decision 060): the triggers below raise a lot's version in the transaction of every
-- write its parts are computed from (its devices' models and expiry dates, its missions, the recruit's planned days and
-- visits done). The rule itself stays in Node (parts.service.ts): a read recomputes a lot whose version moved.
create or replace function maillon_parts_kept_changed(ids uuid[]) returns void
language sql as $$
  -- In one order, so two writes of the same lots cannot lock them crosswise. A lot deleted meanwhile is skipped (its
  -- kept row goes with it).
  insert into lot_parts_kept (batch_id, version)
  select l.id, 1 from (select distinct unnest(ids) as id) l
  where l.id is not null and exists (select 1 from mission_batches b where b.id = l.id)
  order by l.id
  on conflict (batch_id) do update set version = lot_parts_kept.version + 1
$$;--> statement-breakpoint
create or replace function maillon_parts_kept_devices() returns trigger
language plpgsql as $$
begin
  if TG_OP = 'TRUNCATE' then
    update lot_parts_kept set version = version + 1;
  else
    perform maillon_parts_kept_changed(array(
      select m.batch_id
      from old_rows o join new_rows n on n.id = o.id
      join missions m on m.device_id = n.id
      where m.batch_id is not null
        and (o.manufacturer, o.model, o.battery_expiry, o.adult_pads_expiry, o.pediatric_pads_present, o.pediatric_pads_expiry)
          is distinct from (n.manufacturer, n.model, n.battery_expiry, n.adult_pads_expiry, n.pediatric_pads_present, n.pediatric_pads_expiry)));
  end if;
  return null;
end
$$;--> statement-breakpoint
create or replace function maillon_parts_kept_missions() returns trigger
language plpgsql as $$
begin
  if TG_OP = 'INSERT' then
    perform maillon_parts_kept_changed(array(select batch_id from new_rows where batch_id is not null));
  elsif TG_OP = 'DELETE' then
    perform maillon_parts_kept_changed(array(select batch_id from old_rows where batch_id is not null));
  elsif TG_OP = 'UPDATE' then
    perform maillon_parts_kept_changed(array(
      select x.batch_id
      from old_rows o join new_rows n on n.id = o.id
      cross join lateral (values (o.batch_id), (n.batch_id)) x(batch_id)
      where x.batch_id is not null and (o.batch_id, o.device_id) is distinct from (n.batch_id, n.device_id)));
  else -- TRUNCATE
    update lot_parts_kept set version = version + 1;
  end if;
  return null;
end
$$;--> statement-breakpoint
create or replace function maillon_parts_kept_progress() returns trigger
language plpgsql as $$
begin
  if TG_OP = 'INSERT' then
    perform maillon_parts_kept_changed(array(
      select m.batch_id from new_rows r join missions m on m.id = r.mission_id where m.batch_id is not null));
  elsif TG_OP = 'DELETE' then
    perform maillon_parts_kept_changed(array(
      select m.batch_id from old_rows r join missions m on m.id = r.mission_id where m.batch_id is not null));
  elsif TG_OP = 'UPDATE' then
    perform maillon_parts_kept_changed(array(
      select m.batch_id
      from old_rows o join new_rows n on n.id = o.id
      join missions m on m.id in (o.mission_id, n.mission_id)
      where m.batch_id is not null
        and (o.mission_id, o.technician_id, o.planned_visit_date, o.is_completed)
          is distinct from (n.mission_id, n.technician_id, n.planned_visit_date, n.is_completed)));
  else -- TRUNCATE
    update lot_parts_kept set version = version + 1;
  end if;
  return null;
end
$$;--> statement-breakpoint
create trigger maillon_parts_kept_update after update on devices referencing old table as old_rows new table as new_rows
  for each statement execute function maillon_parts_kept_devices();--> statement-breakpoint
create trigger maillon_parts_kept_truncate after truncate on devices
  for each statement execute function maillon_parts_kept_devices();--> statement-breakpoint
create trigger maillon_parts_kept_insert after insert on missions referencing new table as new_rows
  for each statement execute function maillon_parts_kept_missions();--> statement-breakpoint
create trigger maillon_parts_kept_update after update on missions referencing old table as old_rows new table as new_rows
  for each statement execute function maillon_parts_kept_missions();--> statement-breakpoint
create trigger maillon_parts_kept_delete after delete on missions referencing old table as old_rows
  for each statement execute function maillon_parts_kept_missions();--> statement-breakpoint
create trigger maillon_parts_kept_truncate after truncate on missions
  for each statement execute function maillon_parts_kept_missions();--> statement-breakpoint
create trigger maillon_parts_kept_insert after insert on technician_mission_data referencing new table as new_rows
  for each statement execute function maillon_parts_kept_progress();--> statement-breakpoint
create trigger maillon_parts_kept_update after update on technician_mission_data referencing old table as old_rows new table as new_rows
  for each statement execute function maillon_parts_kept_progress();--> statement-breakpoint
create trigger maillon_parts_kept_delete after delete on technician_mission_data referencing old table as old_rows
  for each statement execute function maillon_parts_kept_progress();--> statement-breakpoint
create trigger maillon_parts_kept_truncate after truncate on technician_mission_data
  for each statement execute function maillon_parts_kept_progress();
