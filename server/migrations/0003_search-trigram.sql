-- Indexed free-text search over missions (admin search box): a trigram index on the searched text.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "missions_search_trgm_idx" ON "missions" USING gin ((lower(
  coalesce("title", '') || ' ' || coalesce("description", '') || ' ' || coalesce("location", '') || ' ' ||
  coalesce("department", '') || ' ' || coalesce("serial_number", '') || ' ' || coalesce("defibrillator_model", '') || ' ' ||
  coalesce("visit_type", '') || ' ' || coalesce("observations", '') || ' ' || coalesce("client_name", '')
)) gin_trgm_ops);
