-- A lot's figures, counted and written in one statement (decisions 033 and 046), now kept in the database so that the
-- device's progress below runs it in the same call. `lot` reads the lot (its price, status and frozen figures), its
-- recruited technician (none for the system lot), its missions and those the technician has done. Unless the lot is
-- completed (its figures stay frozen), `figures` derives the count per device (the price shared, rounded half up like
-- proRataCents), the lot is written and so is its technician's open invoice (« Mission à terminer »: the validated
-- amount pro rata of the devices done, the progression « done/total »). The answer is the lot's figures after the
-- change. The caller holds the lot's lock, and the progress it just wrote is visible to the statement.
create or replace function maillon_recompute_batch_figures(p_batch uuid)
returns table("defibrillatorsSum" int, "defibrillatorsDone" int, "amountPerDefibCents" int)
language plpgsql as $$
begin
  return query
  with lot as (
    select b.id, b.price_cents, b.status, b.is_system, b.defibrillators_sum, b.defibrillators_done, b.amount_per_defib_cents,
      r.technician_id,
      case when b.status = 'completed' then 0 else (select count(*)::int from missions m where m.batch_id = b.id) end as total,
      case when b.status = 'completed' or r.technician_id is null then 0 else (
        select count(*)::int from missions m
        where m.batch_id = b.id and exists (
          select 1 from technician_mission_data d where d.mission_id = m.id and d.technician_id = r.technician_id and d.is_completed
        )
      ) end as done
    from mission_batches b
    left join lateral (
      select a.technician_id from applications a where a.batch_id = b.id and a.status in ('Recruté', 'Terminé') and not b.is_system limit 1
    ) r on true
    where b.id = p_batch
  ),
  figures as (
    select l.id, l.price_cents, l.technician_id, l.total, l.done,
      case when l.is_system or l.total = 0 then 0 else round(l.price_cents::numeric / l.total)::int end as per_defib
    from lot l where l.status <> 'completed'
  ),
  lot_written as (
    update mission_batches b
    set defibrillators_sum = f.total, defibrillators_done = f.done, amount_per_defib_cents = f.per_defib, updated_at = clock_timestamp()
    from figures f where b.id = f.id
  ),
  invoice_written as (
    update invoices i
    set validated_amount_cents = case when f.total > 0 then round(f.price_cents::numeric * f.done / f.total)::int else 0 end,
      progression = f.done || '/' || f.total,
      batch_price_cents = f.price_cents, initial_amount_cents = f.price_cents, amount_cents = f.price_cents,
      updated_at = clock_timestamp()
    from figures f
    where i.batch_id = f.id and i.technician_id = f.technician_id and i.status = 'Mission à terminer'
  )
  select coalesce(f.total, l.defibrillators_sum)::int, coalesce(f.done, l.defibrillators_done)::int,
    coalesce(f.per_defib, l.amount_per_defib_cents)::int
  from lot l left join figures f on f.id = l.id;
end
$$;
--> statement-breakpoint
-- A device's progress saved by its lot's recruit, in one call (decision 070): PATCH
-- /api/technician-mission-data/:missionId/:technicianId. Each statement of a PL/pgSQL function sees what was
-- committed before it starts, so the device and its recruitment are read once the lot's lock is held, as the
-- transaction of decision 046 read them. `p_patch` holds only the fields sent (the service writes the window's hours):
-- plannedVisitDate (a timestamp or null), visitWindow, visitStartTime, visitEndTime, isCompleted, technicianComments.
-- The outcome says what happened, and nothing is written unless it is 'saved':
--   not-found            the device is in no lot, or its lot has no recruitment of this technician;
--   finished             the recruitment is finished (Terminé) or the lot completed;
--   window-without-date  a window sent without a date for a device that has none;
--   invited              the slot changes while an invitation to the site is out: the service then saves in its own
--                        transaction with `p_invited_ok`, and updates the invitation in it.
create or replace function maillon_save_device_progress(p_mission uuid, p_technician uuid, p_patch jsonb, p_invited_ok boolean)
returns table(
  outcome text, "plannedVisitDate" text, "visitWindow" text, "visitStartTime" text, "visitEndTime" text, "isCompleted" boolean,
  "technicianComments" text, "adminComments" text, "routePosition" int, "updatedAt" text
)
language plpgsql as $$
declare
  v_lot uuid;
  v_batch uuid;
  v_lot_status text;
  v_application uuid;
  v_application_status text;
  v_saved record;
begin
  select b.id into v_lot from missions m join mission_batches b on b.id = m.batch_id where m.id = p_mission for update of b;
  if v_lot is null then
    outcome := 'not-found';
    return next;
    return;
  end if;
  select m.batch_id, b.status, a.id, a.status into v_batch, v_lot_status, v_application, v_application_status
  from missions m
  left join mission_batches b on b.id = m.batch_id
  left join applications a on a.batch_id = m.batch_id and a.technician_id = p_technician and a.status in ('Recruté', 'Terminé')
  where m.id = p_mission
  limit 1;
  if v_application is null or v_batch is distinct from v_lot then
    outcome := 'not-found';
    return next;
    return;
  end if;
  if v_application_status <> 'Recruté' or v_lot_status = 'completed' then
    outcome := 'finished';
    return next;
    return;
  end if;
  if p_patch ? 'visitWindow' and p_patch->>'visitWindow' is not null and not p_patch ? 'plannedVisitDate'
    and not exists (
      select 1 from technician_mission_data d
      where d.mission_id = p_mission and d.technician_id = p_technician and d.planned_visit_date is not null
    ) then
    outcome := 'window-without-date';
    return next;
    return;
  end if;
  if not p_invited_ok and (p_patch ? 'plannedVisitDate' or p_patch ? 'visitWindow') and exists (
    select 1 from visit_appointments v where v.mission_id = p_mission and v.technician_id = p_technician and v.invited_at is not null
  ) then
    outcome := 'invited';
    return next;
    return;
  end if;
  insert into technician_mission_data as d (
    mission_id, technician_id, planned_visit_date, visit_window, visit_start_time, visit_end_time, is_completed, technician_comments
  )
  values (
    p_mission, p_technician, (p_patch->>'plannedVisitDate')::timestamptz, p_patch->>'visitWindow', p_patch->>'visitStartTime',
    p_patch->>'visitEndTime', coalesce((p_patch->>'isCompleted')::boolean, false), p_patch->>'technicianComments'
  )
  on conflict (mission_id, technician_id) do update set
    planned_visit_date = case when p_patch ? 'plannedVisitDate' then excluded.planned_visit_date else d.planned_visit_date end,
    visit_window = case when p_patch ? 'visitWindow' then excluded.visit_window else d.visit_window end,
    visit_start_time = case when p_patch ? 'visitStartTime' then excluded.visit_start_time else d.visit_start_time end,
    visit_end_time = case when p_patch ? 'visitEndTime' then excluded.visit_end_time else d.visit_end_time end,
    is_completed = case when p_patch ? 'isCompleted' then excluded.is_completed else d.is_completed end,
    technician_comments = case when p_patch ? 'technicianComments' then excluded.technician_comments else d.technician_comments end,
    updated_at = clock_timestamp()
  returning d.planned_visit_date, d.visit_window, d.visit_start_time, d.visit_end_time, d.is_completed, d.technician_comments,
    d.admin_comments, d.route_position, d.updated_at
  into v_saved;
  if p_patch ? 'isCompleted' then
    perform maillon_recompute_batch_figures(v_lot);
  end if;
  outcome := 'saved';
  "plannedVisitDate" := maillon_json_time(v_saved.planned_visit_date);
  "visitWindow" := v_saved.visit_window;
  "visitStartTime" := v_saved.visit_start_time;
  "visitEndTime" := v_saved.visit_end_time;
  "isCompleted" := v_saved.is_completed;
  "technicianComments" := v_saved.technician_comments;
  "adminComments" := v_saved.admin_comments;
  "routePosition" := v_saved.route_position;
  "updatedAt" := maillon_json_time(v_saved.updated_at);
  return next;
end
$$;
