-- Two rules the JSON PostgreSQL writes for the server follows, named once (docs/decisions/044): a time as JavaScript's
-- toISOString writes it (UTC, to the millisecond, truncated as Date does), and a lot's description as the lists show it
-- (the default text when it is blank by JavaScript's trim). The lot's kept list JSON (0022) and the technician's
-- applications (applications.service.ts) both use them. SQL functions of one expression: the planner inlines them.
create or replace function maillon_json_time(t timestamptz) returns text
language sql stable parallel safe as $$
  select to_char(t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;
--> statement-breakpoint
create or replace function maillon_lot_description(description text) returns text
language sql immutable parallel safe as $$
  select case
    when btrim(coalesce(description, ''), E' \t\n\r\f\u000B\u00A0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF') = ''
      then 'Lot de missions de maintenance'
    else description
  end
$$;
--> statement-breakpoint
-- The kept list JSON of 0022, written with the two functions (the same text as before).
create or replace function maillon_lot_list_json() returns trigger
language plpgsql as $$
begin
  new.list_json := json_build_object(
    'id', new.id,
    'title', new.title,
    'description', maillon_lot_description(new.description),
    'price', trim_scale(new.price_cents::numeric / 100),
    'departments', new.departments,
    'tags', new.tags,
    'deadline', maillon_json_time(new.deadline),
    'defibrillatorCount', new.mission_count,
    'candidateCount', new.application_count,
    'missionDepartments', new.mission_departments,
    'isAssigned', new.has_recruit,
    'createdAt', maillon_json_time(new.created_at),
    'position', case
      when new.geo_site_count > 0 and new.geo_lat is not null and new.geo_lon is not null
        then json_build_object('lat', new.geo_lat, 'lon', new.geo_lon, 'approximate', new.geo_approximate_count >= new.geo_site_count)
    end
  )::text;
  new.list_sites := json_build_array(new.geo_site_lats, new.geo_site_lons)::text;
  return new;
end
$$;
