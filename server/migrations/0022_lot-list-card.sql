ALTER TABLE "mission_batches" ALTER COLUMN "list_json" SET DEFAULT '{}';--> statement-breakpoint
ALTER TABLE "mission_batches" ADD COLUMN "list_sites" text DEFAULT '[[],[]]' NOT NULL;--> statement-breakpoint
-- What the technician's lists show of a lot, kept in its row since 0020 (docs/decisions/030), now as the very JSON the
-- list answers (docs/decisions/033): the object of AvailableLot (common/src/schemas/lots.ts) but for what depends on the
-- reader (distance, round trip, whether they applied, added by the server) and the models (sorted in French by the
-- server), in the same forms as the server wrote them: the default description when it is blank (JavaScript's trim),
-- the price in euros, the dates in ISO 8601 UTC to the millisecond, the position when a site is located. A page joins
-- these texts and the server sends them without parsing or serialising them. list_sites keeps the sites' coordinates
-- for the round trips.
create or replace function maillon_lot_list_json() returns trigger
language plpgsql as $$
begin
  new.list_json := json_build_object(
    'id', new.id,
    'title', new.title,
    'description', case
      when btrim(coalesce(new.description, ''), E' \t\n\r\f\u000B\u00A0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF') = ''
        then 'Lot de missions de maintenance'
      else new.description
    end,
    'price', trim_scale(new.price_cents::numeric / 100),
    'departments', new.departments,
    'tags', new.tags,
    'deadline', to_char(new.deadline at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'defibrillatorCount', new.mission_count,
    'candidateCount', new.application_count,
    'missionDepartments', new.mission_departments,
    'isAssigned', new.has_recruit,
    'createdAt', to_char(new.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'position', case
      when new.geo_site_count > 0 and new.geo_lat is not null and new.geo_lon is not null
        then json_build_object('lat', new.geo_lat, 'lon', new.geo_lon, 'approximate', new.geo_approximate_count >= new.geo_site_count)
    end
  )::text;
  new.list_sites := json_build_array(new.geo_site_lats, new.geo_site_lons)::text;
  return new;
end
$$;
--> statement-breakpoint
-- The existing lots: an update of each row runs the trigger.
update mission_batches set list_json = '{}';
