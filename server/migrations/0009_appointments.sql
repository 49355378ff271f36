CREATE TABLE "calendar_feeds" (
	"technician_id" uuid PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "calendar_feeds_tokenHash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "reminder_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"recipient" text NOT NULL,
	"item_id" uuid NOT NULL,
	"day" date NOT NULL,
	"email_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reminder_deliveries_once" UNIQUE("kind","recipient","item_id","day"),
	CONSTRAINT "reminder_deliveries_kind_check" CHECK ("reminder_deliveries"."kind" in ('technician-eve', 'site-eve', 'deadline-digest'))
);
--> statement-breakpoint
CREATE TABLE "visit_appointments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"mission_id" uuid NOT NULL,
	"technician_id" uuid NOT NULL,
	"uid" text NOT NULL,
	"sequence" integer DEFAULT 0 NOT NULL,
	"site_email" text,
	"invited_at" timestamp with time zone,
	"invited_date" date,
	"invited_window" text,
	"invited_start_time" text,
	"invited_end_time" text,
	"last_cancelled_at" timestamp with time zone,
	"response" text,
	"responded_at" timestamp with time zone,
	"proposed_date" date,
	"proposed_window" text,
	"proposed_start_time" text,
	"proposed_end_time" text,
	"proposed_message" text,
	"decision" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "visit_appointments_visit_unique" UNIQUE("mission_id","technician_id"),
	CONSTRAINT "visit_appointments_response_check" CHECK ("visit_appointments"."response" is null or "visit_appointments"."response" in ('confirmed', 'proposed')),
	CONSTRAINT "visit_appointments_decision_check" CHECK ("visit_appointments"."decision" is null or "visit_appointments"."decision" in ('accepted', 'refused')),
	CONSTRAINT "visit_appointments_invited_window_check" CHECK ((invited_window is null and invited_start_time is null and invited_end_time is null) or (invited_window in ('morning', 'afternoon', 'range') and invited_start_time is not null and invited_end_time is not null and invited_start_time < invited_end_time)),
	CONSTRAINT "visit_appointments_proposed_window_check" CHECK ((proposed_window is null and proposed_start_time is null and proposed_end_time is null) or (proposed_window in ('morning', 'afternoon', 'range') and proposed_start_time is not null and proposed_end_time is not null and proposed_start_time < proposed_end_time))
);
--> statement-breakpoint
CREATE TABLE "visit_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"appointment_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"used_action" text,
	"closed_at" timestamp with time zone,
	"closed_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "visit_links_used_action_check" CHECK ("visit_links"."used_action" is null or "visit_links"."used_action" in ('confirmed', 'proposed')),
	CONSTRAINT "visit_links_closed_reason_check" CHECK ("visit_links"."closed_reason" is null or "visit_links"."closed_reason" in ('replaced', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "technician_mission_data" ADD COLUMN "visit_window" text;--> statement-breakpoint
ALTER TABLE "technician_mission_data" ADD COLUMN "visit_start_time" text;--> statement-breakpoint
ALTER TABLE "technician_mission_data" ADD COLUMN "visit_end_time" text;--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_technician_id_technicians_id_fk" FOREIGN KEY ("technician_id") REFERENCES "public"."technicians"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminder_deliveries" ADD CONSTRAINT "reminder_deliveries_email_id_email_outbox_id_fk" FOREIGN KEY ("email_id") REFERENCES "public"."email_outbox"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_appointments" ADD CONSTRAINT "visit_appointments_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_appointments" ADD CONSTRAINT "visit_appointments_technician_id_technicians_id_fk" FOREIGN KEY ("technician_id") REFERENCES "public"."technicians"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_links" ADD CONSTRAINT "visit_links_appointment_id_visit_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."visit_appointments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reminder_deliveries_day_idx" ON "reminder_deliveries" USING btree ("day");--> statement-breakpoint
CREATE INDEX "visit_appointments_technician_idx" ON "visit_appointments" USING btree ("technician_id");--> statement-breakpoint
CREATE INDEX "visit_appointments_invited_idx" ON "visit_appointments" USING btree ("invited_date") WHERE "visit_appointments"."invited_at" is not null;--> statement-breakpoint
CREATE INDEX "visit_links_appointment_idx" ON "visit_links" USING btree ("appointment_id");--> statement-breakpoint
CREATE INDEX "technician_mission_data_planned_idx" ON "technician_mission_data" USING btree ("planned_visit_date") WHERE "technician_mission_data"."planned_visit_date" is not null and not "technician_mission_data"."is_completed";--> statement-breakpoint
ALTER TABLE "technician_mission_data" ADD CONSTRAINT "technician_mission_data_visit_window_check" CHECK (("technician_mission_data"."visit_window" is null and "technician_mission_data"."visit_start_time" is null and "technician_mission_data"."visit_end_time" is null) or ("technician_mission_data"."visit_window" in ('morning', 'afternoon', 'range') and "technician_mission_data"."visit_start_time" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' and "technician_mission_data"."visit_end_time" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' and "technician_mission_data"."visit_start_time" < "technician_mission_data"."visit_end_time"));