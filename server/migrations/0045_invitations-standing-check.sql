ALTER TABLE "visit_appointments" ADD COLUMN "standing_check" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "visit_appointments_standing_check_idx" ON "visit_appointments" USING btree ("invited_date") WHERE "visit_appointments"."standing_check";--> statement-breakpoint
-- The invitations whose visit may no longer stand (decision 063). An invitation stands while its technician has a
-- date on the device and is recruited on the device's lot (isVisitStanding). The writes that can end that mark the
-- invitations they touch, in their own transaction; the minute's sweep reads only the marked ones (its partial index),
-- and the hour's sweep reads them all, for a write no trigger below sees. The mark is set whether or not it was set
-- already, so the write takes the invitation's row lock: a sweep clearing the mark meanwhile waits for this write, or
-- this write for it.
-- `technician_ids[i]` null: every technician's invitation for `mission_ids[i]`.
create or replace function maillon_standing_mark(mission_ids uuid[], technician_ids uuid[]) returns void
language plpgsql as $$
begin
  if coalesce(cardinality(mission_ids), 0) = 0 then
    return;
  end if;
  update visit_appointments va set standing_check = true
  from unnest(mission_ids, technician_ids) p(mission_id, technician_id)
  where va.mission_id = p.mission_id and (p.technician_id is null or va.technician_id = p.technician_id)
    and va.invited_at is not null;
end
$$;
--> statement-breakpoint
-- A progress record whose date is cleared, that moves to another device or technician, or that is deleted.
create or replace function maillon_standing_progress() returns trigger
language plpgsql as $$
declare
  mission_ids uuid[];
  technician_ids uuid[];
begin
  if TG_OP = 'UPDATE' then
    select array_agg(o.mission_id), array_agg(o.technician_id) into mission_ids, technician_ids
    from old_rows o join new_rows n on n.id = o.id
    where o.planned_visit_date is not null
      and (n.planned_visit_date is null or (n.mission_id, n.technician_id) is distinct from (o.mission_id, o.technician_id));
  else -- DELETE
    select array_agg(o.mission_id), array_agg(o.technician_id) into mission_ids, technician_ids
    from old_rows o where o.planned_visit_date is not null;
  end if;
  perform maillon_standing_mark(mission_ids, technician_ids);
  return null;
end
$$;
--> statement-breakpoint
create trigger maillon_standing_update after update on technician_mission_data
  referencing old table as old_rows new table as new_rows for each statement execute function maillon_standing_progress();
--> statement-breakpoint
create trigger maillon_standing_delete after delete on technician_mission_data
  referencing old table as old_rows for each statement execute function maillon_standing_progress();
--> statement-breakpoint
-- A recruit (« Recruté » or « Terminé ») who is no longer one, moved to another lot or technician, or deleted: the
-- invitations of the lot's devices.
create or replace function maillon_standing_applications() returns trigger
language plpgsql as $$
declare
  mission_ids uuid[];
  technician_ids uuid[];
begin
  if TG_OP = 'UPDATE' then
    select array_agg(m.id), array_agg(o.technician_id) into mission_ids, technician_ids
    from old_rows o join new_rows n on n.id = o.id join missions m on m.batch_id = o.batch_id
    where o.status in ('Recruté', 'Terminé')
      and (n.status not in ('Recruté', 'Terminé') or (n.batch_id, n.technician_id) is distinct from (o.batch_id, o.technician_id));
  else -- DELETE
    select array_agg(m.id), array_agg(o.technician_id) into mission_ids, technician_ids
    from old_rows o join missions m on m.batch_id = o.batch_id
    where o.status in ('Recruté', 'Terminé');
  end if;
  perform maillon_standing_mark(mission_ids, technician_ids);
  return null;
end
$$;
--> statement-breakpoint
create trigger maillon_standing_update after update on applications
  referencing old table as old_rows new table as new_rows for each statement execute function maillon_standing_applications();
--> statement-breakpoint
create trigger maillon_standing_delete after delete on applications
  referencing old table as old_rows for each statement execute function maillon_standing_applications();
--> statement-breakpoint
-- A device moved to another lot, or out of any: its technician is no longer recruited on its lot. A deleted device
-- takes its invitations with it (on delete cascade).
create or replace function maillon_standing_missions() returns trigger
language plpgsql as $$
declare
  mission_ids uuid[];
begin
  select array_agg(n.id) into mission_ids
  from old_rows o join new_rows n on n.id = o.id where o.batch_id is distinct from n.batch_id;
  perform maillon_standing_mark(mission_ids, array_fill(null::uuid, array[coalesce(cardinality(mission_ids), 0)]));
  return null;
end
$$;
--> statement-breakpoint
create trigger maillon_standing_update after update on missions
  referencing old table as old_rows new table as new_rows for each statement execute function maillon_standing_missions();
