ALTER TABLE "mission_batches" ADD COLUMN "list_json" text DEFAULT '[]' NOT NULL;
--> statement-breakpoint
-- What the technician's lists show of a lot, as PostgreSQL writes it in JSON, kept in the row (docs/decisions/030):
-- written by a BEFORE trigger from the row's own columns on every insert and update, so it can never disagree with
-- them (the figures kept by 0017's triggers arrive through an update of the row too). A page joins these texts instead
-- of formatting, on every read, the site coordinates, the lists and the text of each of its twenty lots. The order is
-- that of LotTuple in mission-batches.service.ts; the page adds whether the technician applied.
create or replace function maillon_lot_list_json() returns trigger
language plpgsql as $$
begin
  new.list_json := json_build_array(new.id, new.title, new.description, new.price_cents, new.departments, new.tags,
    (extract(epoch from new.deadline) * 1000)::float8, (extract(epoch from new.created_at) * 1000)::float8,
    new.geo_site_count, new.geo_approximate_count, new.geo_lat, new.geo_lon, new.geo_site_lats, new.geo_site_lons,
    new.mission_count, new.mission_models, new.mission_departments, new.application_count, new.has_recruit)::text;
  return new;
end
$$;
--> statement-breakpoint
create trigger maillon_lot_list_json before insert or update on mission_batches
  for each row execute function maillon_lot_list_json();
--> statement-breakpoint
-- The existing lots: an update of each row runs the trigger.
update mission_batches set list_json = '[]';
