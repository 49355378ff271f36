-- The text the admin searches look in, kept in the row (docs/decisions/045): a search that reads rows (a word nearly every
-- mission holds, past the 1 000 it counts; a short one no index can take) compared the pattern with a text it built for
-- every row, the concatenation of nine columns lowercased (three quarters of the statement). Stored generated columns,
-- the same expressions as the trigram indexes of 0003 and 0012, which now index the columns instead.
DROP INDEX IF EXISTS "missions_search_trgm_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "devices_search_trgm_idx";--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(coalesce(title, '') || ' ' || coalesce(description, '') || ' ' || coalesce(location, '') || ' ' || coalesce(department, '') || ' ' || coalesce(serial_number, '') || ' ' || coalesce(defibrillator_model, '') || ' ' || coalesce(visit_type, '') || ' ' || coalesce(observations, '') || ' ' || coalesce(client_name, ''))) STORED;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(coalesce(serial_number, '') || ' ' || coalesce(serial_key, '') || ' ' || coalesce(site_name, '') || ' ' || coalesce(address, '') || ' ' || coalesce(postal_code, '') || ' ' || coalesce(city, '') || ' ' || coalesce(manufacturer, '') || ' ' || coalesce(model, '') || ' ' || coalesce(operator_name, ''))) STORED;--> statement-breakpoint
CREATE INDEX "missions_search_trgm_idx" ON "missions" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "devices_search_trgm_idx" ON "devices" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
-- The new columns' statistics now, not at autovacuum's next pass: without them the planner cannot tell a word every
-- mission holds from a rare one, and reads « maintenance » through the trigram index (30 ms instead of 2).
ANALYZE "missions";--> statement-breakpoint
ANALYZE "devices";
