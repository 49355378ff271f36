-- The searched text of the technicians, invoices and parcels kept in the row, as the missions' and devices' (0037,
-- docs/decisions/045): the expressions of 0028's trigram indexes, which now index the columns. Analysed at once.
DROP INDEX IF EXISTS "technicians_search_trgm_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "shipments_search_trgm_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "invoices_search_trgm_idx";--> statement-breakpoint
ALTER TABLE "technicians" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || coalesce(first_name, '') || ' ' || coalesce(email, '') || ' ' || coalesce(company_name, ''))) STORED;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(coalesce(mission_title, '') || ' ' || coalesce(destination, '') || ' ' || coalesce(content, '') || ' ' || coalesce(tracking_number, ''))) STORED;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(coalesce(reference, '') || ' ' || coalesce(mission_title, '') || ' ' || coalesce(description, '') || ' ' || coalesce(invoice_number, ''))) STORED;--> statement-breakpoint
CREATE INDEX "technicians_search_trgm_idx" ON "technicians" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "shipments_search_trgm_idx" ON "shipments" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "invoices_search_trgm_idx" ON "invoices" USING gin ("search_text" gin_trgm_ops);
--> statement-breakpoint
ANALYZE "technicians";--> statement-breakpoint
ANALYZE "shipments";--> statement-breakpoint
ANALYZE "invoices";
