ALTER TABLE "mission_batches" ADD COLUMN "missions_json" json DEFAULT '[]'::json NOT NULL;--> statement-breakpoint
-- The lot's missions as « Terminés » answers them (decision 065), kept with its other figures from its missions
-- (migrations 0017, 0041): read on missions_batch_idx per lot, by title as the page sorted them.
create or replace function maillon_refresh_lot_missions(ids uuid[]) returns void
language plpgsql as $$
begin
  if cardinality(ids) = 0 then return; end if;
  perform 1 from mission_batches where id = any(ids) order by id for no key update;
  update mission_batches b set mission_count = f.n, mission_models = f.models, mission_departments = f.departments,
    missions_search_text = f.searched, missions_json = f.missions
  from (
    select g.*, j.missions
    from (
      select l.id, count(m.id)::int as n,
        coalesce(array_agg(distinct m.defibrillator_model order by m.defibrillator_model)
          filter (where coalesce(m.defibrillator_model, '') <> ''), '{}') as models,
        coalesce(array_agg(distinct m.department order by m.department) filter (where coalesce(m.department, '') <> ''), '{}') as departments,
        coalesce(string_agg(m.search_text, ' ' order by m.id), '') as searched
      from (select distinct unnest(ids) as id) l
      left join missions m on m.batch_id = l.id
      group by l.id
    ) g
    cross join lateral (
      select coalesce(json_agg(j order by j.title, j.id), '[]') as missions
      from (
        select id, title, serial_number as "serialNumber", client_name as "clientName", defibrillator_model as "defibrillatorModel",
          visit_type as "visitType", location, department, status
        from missions where batch_id = g.id
      ) j
    ) j
  ) f
  where b.id = f.id
    and (b.mission_count, b.mission_models, b.mission_departments, b.missions_search_text, b.missions_json::text)
      is distinct from (f.n, f.models, f.departments, f.searched, f.missions::text);
end
$$;
--> statement-breakpoint
-- The missions' trigger, without a join of old_rows with new_rows (decision 064, as migration 0047 writes the others),
-- now also for the fields of that JSON that the searched text does not hold as they are (it is lowercased), and the
-- status.
create or replace function maillon_missions_lot_figures() returns trigger
language plpgsql as $$
begin
  if TG_OP = 'INSERT' then
    perform maillon_refresh_lot_missions(array(select batch_id from new_rows where batch_id is not null));
  elsif TG_OP = 'DELETE' then
    perform maillon_refresh_lot_missions(array(select batch_id from old_rows where batch_id is not null));
  elsif TG_OP = 'UPDATE' then
    perform maillon_refresh_lot_missions(array(
      select v.batch_id
      from (
        select v.batch_id, count(*) over (partition by v.id) as versions
        from (
          select id, batch_id, defibrillator_model, department, search_text, title, serial_number, client_name, visit_type,
            location, status
          from old_rows
          union
          select id, batch_id, defibrillator_model, department, search_text, title, serial_number, client_name, visit_type,
            location, status
          from new_rows
        ) v
      ) v
      where v.versions > 1 and v.batch_id is not null));
  else -- TRUNCATE
    update mission_batches set mission_count = 0, mission_models = '{}', mission_departments = '{}', missions_search_text = '',
      missions_json = '[]'
    where mission_count <> 0 or missions_search_text <> '' or missions_json::text <> '[]';
  end if;
  return null;
end
$$;
--> statement-breakpoint
select maillon_refresh_lot_missions(array(select id from mission_batches));
