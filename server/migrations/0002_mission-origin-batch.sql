ALTER TABLE "missions" ADD COLUMN "origin_batch_id" uuid;--> statement-breakpoint
ALTER TABLE "missions" ADD CONSTRAINT "missions_origin_batch_id_mission_batches_id_fk" FOREIGN KEY ("origin_batch_id") REFERENCES "public"."mission_batches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "missions_origin_batch_idx" ON "missions" USING btree ("origin_batch_id");