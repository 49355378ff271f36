CREATE INDEX "shipments_created_idx" ON "shipments" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "invoices_created_idx" ON "invoices" USING btree ("created_at","id");