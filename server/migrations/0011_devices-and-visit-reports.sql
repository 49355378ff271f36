CREATE TABLE "devices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"serial_number" text NOT NULL,
	"serial_key" text NOT NULL,
	"manufacturer" text,
	"model" text,
	"site_name" text,
	"address" text,
	"postal_code" text,
	"city" text,
	"latitude" double precision,
	"longitude" double precision,
	"access" text,
	"free_access" boolean,
	"access_floor" text,
	"access_details" text,
	"opening_hours" text,
	"availability_details" text,
	"site_phone" text,
	"site_email" text,
	"operator_name" text,
	"operator_siren" text,
	"operator_phone" text,
	"operator_email" text,
	"functional_state" text DEFAULT 'Inconnu' NOT NULL,
	"battery_expiry" date,
	"adult_pads_expiry" date,
	"pediatric_pads_present" boolean,
	"pediatric_pads_expiry" date,
	"installed_on" date,
	"last_maintenance_on" date,
	"maintenance_interval_months" integer DEFAULT 12 NOT NULL,
	"next_maintenance_due" date,
	"last_report_on" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "devices_state_check" CHECK (functional_state in ('En fonctionnement', 'Hors service', 'Supprimé définitivement', 'Absent momentanément', 'Inconnu')),
	CONSTRAINT "devices_access_check" CHECK (access is null or access in ('Intérieur', 'Extérieur')),
	CONSTRAINT "devices_interval_check" CHECK ("devices"."maintenance_interval_months" between 1 and 60)
);
--> statement-breakpoint
CREATE TABLE "visit_report_photos" (
	"id" uuid PRIMARY KEY NOT NULL,
	"report_id" uuid NOT NULL,
	"file_id" uuid NOT NULL,
	"sha256" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"size" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visit_report_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"report_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"fingerprint" text NOT NULL,
	"pdf_file_id" uuid,
	"emailed_to" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "visit_report_versions_unique" UNIQUE("report_id","version")
);
--> statement-breakpoint
CREATE TABLE "visit_reports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"mission_id" uuid NOT NULL,
	"technician_id" uuid NOT NULL,
	"device_id" uuid,
	"version" integer DEFAULT 0 NOT NULL,
	"draft" jsonb,
	"draft_updated_at" timestamp with time zone,
	"visited_at" timestamp with time zone,
	"outcome" text,
	"checklist" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"battery_expiry" date,
	"adult_pads_expiry" date,
	"pediatric_pads_present" boolean,
	"pediatric_pads_expiry" date,
	"consumables_replaced" text[] DEFAULT '{}'::text[] NOT NULL,
	"observations" text,
	"signer_name" text,
	"signed_at" timestamp with time zone,
	"signature_file_id" uuid,
	"unsigned_reason" text,
	"fingerprint" text,
	"pdf_file_id" uuid,
	"finalized_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "visit_reports_mission_technician_unique" UNIQUE("mission_id","technician_id"),
	CONSTRAINT "visit_reports_outcome_check" CHECK (outcome is null or outcome in ('En fonctionnement', 'Hors service', 'Supprimé définitivement', 'Absent momentanément', 'Inconnu', 'Site inaccessible'))
);
--> statement-breakpoint
ALTER TABLE "stored_files" DROP CONSTRAINT "stored_files_kind_check";--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "device_id" uuid;--> statement-breakpoint
ALTER TABLE "visit_report_photos" ADD CONSTRAINT "visit_report_photos_report_id_visit_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."visit_reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_report_photos" ADD CONSTRAINT "visit_report_photos_file_id_stored_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."stored_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_report_versions" ADD CONSTRAINT "visit_report_versions_report_id_visit_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."visit_reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_report_versions" ADD CONSTRAINT "visit_report_versions_pdf_file_id_stored_files_id_fk" FOREIGN KEY ("pdf_file_id") REFERENCES "public"."stored_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_reports" ADD CONSTRAINT "visit_reports_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_reports" ADD CONSTRAINT "visit_reports_technician_id_technicians_id_fk" FOREIGN KEY ("technician_id") REFERENCES "public"."technicians"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_reports" ADD CONSTRAINT "visit_reports_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_reports" ADD CONSTRAINT "visit_reports_signature_file_id_stored_files_id_fk" FOREIGN KEY ("signature_file_id") REFERENCES "public"."stored_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_reports" ADD CONSTRAINT "visit_reports_pdf_file_id_stored_files_id_fk" FOREIGN KEY ("pdf_file_id") REFERENCES "public"."stored_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "devices_serial_key_idx" ON "devices" USING btree ("serial_key");--> statement-breakpoint
CREATE INDEX "devices_state_idx" ON "devices" USING btree ("functional_state");--> statement-breakpoint
CREATE INDEX "devices_battery_idx" ON "devices" USING btree ("battery_expiry");--> statement-breakpoint
CREATE INDEX "devices_adult_pads_idx" ON "devices" USING btree ("adult_pads_expiry");--> statement-breakpoint
CREATE INDEX "devices_pediatric_pads_idx" ON "devices" USING btree ("pediatric_pads_expiry") WHERE pediatric_pads_present;--> statement-breakpoint
CREATE INDEX "devices_next_maintenance_idx" ON "devices" USING btree ("next_maintenance_due");--> statement-breakpoint
CREATE INDEX "devices_last_maintenance_idx" ON "devices" USING btree ("last_maintenance_on");--> statement-breakpoint
CREATE INDEX "visit_report_photos_report_idx" ON "visit_report_photos" USING btree ("report_id","position");--> statement-breakpoint
CREATE INDEX "visit_reports_technician_idx" ON "visit_reports" USING btree ("technician_id");--> statement-breakpoint
CREATE INDEX "visit_reports_device_idx" ON "visit_reports" USING btree ("device_id");--> statement-breakpoint
ALTER TABLE "missions" ADD CONSTRAINT "missions_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "missions_device_idx" ON "missions" USING btree ("device_id");--> statement-breakpoint
ALTER TABLE "stored_files" ADD CONSTRAINT "stored_files_kind_check" CHECK (kind in ('identity', 'cv', 'invoice', 'visit-photo', 'signature', 'visit-report'));