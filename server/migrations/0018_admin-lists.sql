DROP INDEX "technicians_status_idx";--> statement-breakpoint
CREATE INDEX "technicians_status_created_idx" ON "technicians" USING btree ("status","created_at" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "transfers_invoice_idx" ON "transfers" USING btree ("invoice_id","created_at","id");