CREATE TABLE "email_attachments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email_id" uuid NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"disposition" text DEFAULT 'attachment' NOT NULL,
	"content" "bytea",
	"storage_key" text,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "email_attachments_disposition_check" CHECK ("email_attachments"."disposition" in ('attachment', 'calendar')),
	CONSTRAINT "email_attachments_source_check" CHECK (("email_attachments"."content" is null) <> ("email_attachments"."storage_key" is null))
);
--> statement-breakpoint
CREATE TABLE "scheduled_tasks" (
	"name" text PRIMARY KEY NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL,
	"locked_by" text,
	"locked_until" timestamp with time zone,
	"last_started_at" timestamp with time zone,
	"last_finished_at" timestamp with time zone,
	"last_error" text,
	"runs" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_attachments" ADD CONSTRAINT "email_attachments_email_id_email_outbox_id_fk" FOREIGN KEY ("email_id") REFERENCES "public"."email_outbox"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_attachments_email_idx" ON "email_attachments" USING btree ("email_id","position");