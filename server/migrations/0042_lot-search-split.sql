-- The admin's search of lots on two trigram indexes (decision 055): the lot's own text (title, description) and the
-- text it keeps of its missions (missions_search_text, migration 0041) are searched each on its own index, instead of
-- one index on their concatenation. A search of « lot 12 » found 1 222 candidates on the joined text (every lot's
-- description says « lot », and its missions hold many numbers starting with 12), each rechecked against 1.6 KB.
-- Dropping the generated column drops its index, which is made again on the new column.
ALTER TABLE "mission_batches" drop column "search_text";--> statement-breakpoint
ALTER TABLE "mission_batches" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(coalesce(title, '') || ' ' || coalesce(description, ''))) STORED;--> statement-breakpoint
CREATE INDEX "mission_batches_search_trgm_idx" ON "mission_batches" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "mission_batches_missions_search_trgm_idx" ON "mission_batches" USING gin ("missions_search_text" gin_trgm_ops);
