-- The map's markers written compactly (docs/decisions/037): no spaces, and the position to 6 decimals (about 0.1 m)
-- instead of a double's 17 digits. 500 markers are about a quarter smaller, for the phone and for the server, which
-- spends most of the map's time sending them. The title goes through to_json, which escapes it as JSON.
create or replace function maillon_insert_lot_markers(ids uuid[]) returns void
language sql as $$
  insert into lot_markers (batch_id, point, created_at, departments, tags, marker)
  select b.id, maillon_unit_point(b.geo_lat, b.geo_lon), b.created_at, b.departments, b.tags,
    '{"id":"' || b.id::text || '","title":' || to_json(b.title)::text
      || ',"lat":' || round(b.geo_lat::numeric, 6)::float8::text || ',"lon":' || round(b.geo_lon::numeric, 6)::float8::text
      || ',"approximate":' || (b.geo_approximate_count >= b.geo_site_count)::text || '}'
  from mission_batches b
  where b.id = any(ids) and b.visibility = 'visible' and b.status <> 'completed' and not b.is_system
    and b.geo_site_count > 0 and b.geo_lat is not null and b.geo_lon is not null
$$;
--> statement-breakpoint
delete from lot_markers;
--> statement-breakpoint
select maillon_insert_lot_markers(array(select id from mission_batches));
