-- An application saved in one call (decision 070): POST /api/applications/batch (p_batch, status En attente) and
-- POST /api/applications (p_mission, the status sent; its lot is the mission's). The lot is locked first, so that
-- applications to one lot and its recruitment are serialised; the checks then read, in statements of their own, what
-- the previous holder of the lock committed (decision 030). The outcome is the first refusal, in the order the service
-- answered them before (decisions.md §4), and nothing is written unless it is 'created':
--   technician-not-found, account-pending, account-inactive, training-incomplete  the technician may not apply;
--   mission-not-found                 the mission does not exist or is in no lot;
--   lot-not-found                     the lot does not exist, is invisible or is the system lot;
--   lot-completed                     the lot is completed, or the mission completed or cancelled;
--   already-applied                   this technician applied to this lot (or mission) already;
--   already-assigned                  a technician is recruited on the lot.
-- The unique constraints stay the last guard: an insert they refuse answers already-applied.
create or replace function maillon_apply(p_technician uuid, p_batch uuid, p_mission uuid, p_status text)
returns table(outcome text, id uuid, "batchId" uuid, "missionId" uuid, "appliedAt" text)
language plpgsql as $$
declare
  v_batch uuid := p_batch;
  v_mission_found boolean := false;
  v_mission_status text;
  v_lot_found boolean := false;
  v_visibility text;
  v_lot_status text;
  v_system boolean;
  v_technician_status text;
  v_unread int;
  v_applied boolean;
  v_created record;
begin
  if p_mission is not null then
    select m.batch_id, m.status into v_batch, v_mission_status from missions m where m.id = p_mission;
    v_mission_found := found;
  end if;
  if v_batch is not null then
    select b.visibility, b.status, b.is_system into v_visibility, v_lot_status, v_system from mission_batches b where b.id = v_batch for update;
    v_lot_found := found;
  end if;
  select t.status into v_technician_status from technicians t where t.id = p_technician;
  if v_technician_status is null then outcome := 'technician-not-found'; return next; return; end if;
  if v_technician_status = 'pending' then outcome := 'account-pending'; return next; return; end if;
  if v_technician_status <> 'active' then outcome := 'account-inactive'; return next; return; end if;
  select count(*)::int into v_unread from learning_resources lr
  where not exists (select 1 from resource_views rv where rv.resource_id = lr.id and rv.technician_id = p_technician);
  if v_unread > 0 then outcome := 'training-incomplete'; return next; return; end if;
  if p_mission is not null and (not v_mission_found or v_batch is null) then outcome := 'mission-not-found'; return next; return; end if;
  if not v_lot_found or v_visibility <> 'visible' or v_system then outcome := 'lot-not-found'; return next; return; end if;
  if v_lot_status = 'completed' or coalesce(v_mission_status in ('completed', 'cancelled'), false) then
    outcome := 'lot-completed';
    return next;
    return;
  end if;
  if p_mission is not null then
    v_applied := exists (select 1 from applications a where a.mission_id = p_mission and a.technician_id = p_technician);
  else
    v_applied := exists (select 1 from applications a where a.batch_id = v_batch and a.technician_id = p_technician);
  end if;
  if v_applied then outcome := 'already-applied'; return next; return; end if;
  if exists (select 1 from applications a where a.batch_id = v_batch and a.status in ('Recruté', 'Terminé')) then
    outcome := 'already-assigned';
    return next;
    return;
  end if;
  if p_mission is not null then
    insert into applications as a (mission_id, technician_id, status) values (p_mission, p_technician, p_status)
    on conflict do nothing
    returning a.id, a.batch_id, a.mission_id, a.applied_at into v_created;
  else
    insert into applications as a (batch_id, technician_id, status) values (v_batch, p_technician, p_status)
    on conflict do nothing
    returning a.id, a.batch_id, a.mission_id, a.applied_at into v_created;
  end if;
  if not found then outcome := 'already-applied'; return next; return; end if;
  outcome := 'created';
  id := v_created.id;
  "batchId" := v_created.batch_id;
  "missionId" := v_created.mission_id;
  "appliedAt" := maillon_json_time(v_created.applied_at);
  return next;
end
$$;
