DROP INDEX "missions_batch_idx";--> statement-breakpoint
DROP INDEX "missions_status_idx";--> statement-breakpoint
CREATE INDEX "missions_created_idx" ON "missions" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "missions_unbatched_idx" ON "missions" USING btree ("created_at","id") WHERE batch_id is null;--> statement-breakpoint
CREATE INDEX "missions_batch_idx" ON "missions" USING btree ("batch_id","created_at","id");--> statement-breakpoint
CREATE INDEX "missions_status_idx" ON "missions" USING btree ("status","created_at","id");