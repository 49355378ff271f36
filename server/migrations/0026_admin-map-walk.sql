-- The admin's map within a view (docs/decisions/038): the missions of the active lots nearest the view's centre, read
-- by walking the position index (missions_position_idx) in distance order inside the view and stopping at `max_rows`.
-- PostgreSQL prices a point-in-box condition at a fixed 0.1 % of the rows (contsel): it expects 100 missions in any
-- view, so it would rather fetch every mission of the view and sort them, which costs as many row reads as the view
-- holds (10 000 over Paris at full scale, 80 000 over France). The function's planner settings leave it the ordered
-- walk only, whose cost is bounded by `max_rows` whatever the view.
create or replace function maillon_lot_missions_in_view(south float8, west float8, north float8, east float8, max_rows int)
returns table (id uuid, title text, lat float8, lon float8, approximate boolean, batch_id uuid, status text, batch_title text, defibrillators_sum int)
language sql stable
set enable_bitmapscan = off
set enable_seqscan = off
set enable_sort = off
as $$
  select m.id, m.title, coalesce(m.latitude, m.approx_latitude), coalesce(m.longitude, m.approx_longitude),
    coalesce(m.latitude is null or m.longitude is null or (m.latitude = m.approx_latitude and m.longitude = m.approx_longitude), false),
    m.batch_id, m.status, b.title, b.defibrillators_sum
  from missions m
  join mission_batches b on b.id = m.batch_id
  where point(coalesce(m.longitude, m.approx_longitude), coalesce(m.latitude, m.approx_latitude)) <@ box(point(west, south), point(east, north))
    and b.status = 'active' and not b.is_system
  order by point(coalesce(m.longitude, m.approx_longitude), coalesce(m.latitude, m.approx_latitude)) <-> point((west + east) / 2, (south + north) / 2)
  limit max_rows
$$;
