CREATE TABLE "row_counts" (
	"table_name" text NOT NULL,
	"key" text NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "row_counts_table_name_key_pk" PRIMARY KEY("table_name","key")
);
--> statement-breakpoint
DROP INDEX "mission_batches_open_idx";--> statement-breakpoint
DROP INDEX "missions_batch_idx";--> statement-breakpoint
DROP INDEX "missions_status_idx";--> statement-breakpoint
CREATE INDEX "missions_created_idx" ON "missions" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "missions_unbatched_idx" ON "missions" USING btree ("created_at","id") WHERE batch_id is null;--> statement-breakpoint
CREATE INDEX "mission_batches_open_idx" ON "mission_batches" USING btree ("created_at","title" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE visibility = 'visible' and status <> 'completed' and not is_system;--> statement-breakpoint
CREATE INDEX "missions_batch_idx" ON "missions" USING btree ("batch_id","created_at","id");--> statement-breakpoint
CREATE INDEX "missions_status_idx" ON "missions" USING btree ("status","created_at","id");