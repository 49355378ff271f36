-- Indexed searches of the admin's technicians, invoices and parcels (decision 039): each a trigram index on the
-- searched text, as the missions' (0003). A technician's text holds the first name again after the last, so that
-- « Prénom Nom » and « Nom Prénom » are both substrings of it; invoices and parcels match their own text, or a
-- technician matching on this index. Before, each search read every row: 176 ms for the invoices, 139 ms for the
-- parcels, 42 ms for the technicians at full scale.
CREATE INDEX IF NOT EXISTS "technicians_search_trgm_idx" ON "technicians" USING gin ((lower(
  coalesce("first_name", '') || ' ' || coalesce("last_name", '') || ' ' || coalesce("first_name", '') || ' ' ||
  coalesce("email", '') || ' ' || coalesce("company_name", '')
)) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoices_search_trgm_idx" ON "invoices" USING gin ((lower(
  coalesce("reference", '') || ' ' || coalesce("mission_title", '') || ' ' || coalesce("description", '') || ' ' ||
  coalesce("invoice_number", '')
)) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "shipments_search_trgm_idx" ON "shipments" USING gin ((lower(
  coalesce("mission_title", '') || ' ' || coalesce("destination", '') || ' ' || coalesce("content", '') || ' ' ||
  coalesce("tracking_number", '')
)) gin_trgm_ops);
