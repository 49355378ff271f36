CREATE TABLE "audit_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"actor_user_id" uuid,
	"action" text NOT NULL,
	"entity" text NOT NULL,
	"entity_id" text,
	"before" text,
	"after" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "password_reset_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"absolute_expires_at" timestamp with time zone NOT NULL,
	"user_agent" text,
	"ip" text
);
--> statement-breakpoint
CREATE TABLE "stored_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"technician_id" uuid,
	"kind" text NOT NULL,
	"storage_key" text NOT NULL,
	"original_name" text NOT NULL,
	"mime_type" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stored_files_storageKey_unique" UNIQUE("storage_key"),
	CONSTRAINT "stored_files_kind_check" CHECK (kind in ('identity', 'cv', 'invoice'))
);
--> statement-breakpoint
CREATE TABLE "technicians" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text,
	"address" text,
	"city" text,
	"postal_code" text,
	"country" text DEFAULT 'France' NOT NULL,
	"departments" text[] DEFAULT '{}'::text[] NOT NULL,
	"iban" text,
	"siret" text,
	"company_name" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"formation_completed" boolean DEFAULT false NOT NULL,
	"formation_status" text DEFAULT 'Formation incomplète' NOT NULL,
	"total_earnings_cents" integer DEFAULT 0 NOT NULL,
	"completed_missions" integer DEFAULT 0 NOT NULL,
	"preferred_relay_point" text,
	"identity_document_file_id" uuid,
	"cv_file_id" uuid,
	"comments" text,
	"latitude" double precision,
	"longitude" double precision,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "technicians_userId_unique" UNIQUE("user_id"),
	CONSTRAINT "technicians_status_check" CHECK (status in ('pending', 'active', 'inactive', 'rejected')),
	CONSTRAINT "technicians_departments_check" CHECK (cardinality("technicians"."departments") <= 3)
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"role" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_unique" UNIQUE("email"),
	CONSTRAINT "users_role_check" CHECK (role in ('admin', 'technician'))
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"serial_number" text NOT NULL,
	"client_name" text NOT NULL,
	"defibrillator_model" text NOT NULL,
	"visit_type" text NOT NULL,
	"department" text NOT NULL,
	"completion_link" text NOT NULL,
	"address" text NOT NULL,
	"postal_code" text,
	"city" text,
	"tel_site" text,
	"email_site" text,
	"observations" text,
	"latitude" double precision,
	"longitude" double precision,
	"source" text DEFAULT 'manual' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "jobs_status_check" CHECK (status in ('pending', 'refused'))
);
--> statement-breakpoint
CREATE TABLE "mission_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"price_cents" integer DEFAULT 0 NOT NULL,
	"departments" text[] DEFAULT '{}'::text[] NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"deadline" timestamp with time zone,
	"visibility" text DEFAULT 'invisible' NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"is_system" boolean DEFAULT false NOT NULL,
	"defibrillators_sum" integer DEFAULT 0 NOT NULL,
	"defibrillators_done" integer DEFAULT 0 NOT NULL,
	"amount_per_defib_cents" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mission_batches_visibility_check" CHECK (visibility in ('invisible', 'visible')),
	CONSTRAINT "mission_batches_status_check" CHECK (status in ('active', 'completed')),
	CONSTRAINT "mission_batches_tags_check" CHECK (cardinality("mission_batches"."tags") <= 2),
	CONSTRAINT "mission_batches_price_check" CHECK ("mission_batches"."price_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "missions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"location" text,
	"department" text,
	"budget_cents" integer DEFAULT 0 NOT NULL,
	"deadline" timestamp with time zone,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"batch_id" uuid,
	"serial_number" text,
	"client_name" text,
	"defibrillator_model" text,
	"visit_type" text,
	"tel_site" text,
	"email_site" text,
	"completion_link" text,
	"observations" text,
	"postal_code" text,
	"city" text,
	"latitude" double precision,
	"longitude" double precision,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "missions_status_check" CHECK (status in ('draft', 'active', 'completed', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "applications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"mission_id" uuid,
	"batch_id" uuid,
	"technician_id" uuid NOT NULL,
	"status" text DEFAULT 'En attente' NOT NULL,
	"applied_at" timestamp with time zone DEFAULT now() NOT NULL,
	"admin_comment" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "applications_technician_batch_unique" UNIQUE("technician_id","batch_id"),
	CONSTRAINT "applications_technician_mission_unique" UNIQUE("technician_id","mission_id"),
	CONSTRAINT "applications_status_check" CHECK (status in ('En attente', 'pending', 'Recruté', 'Terminé', 'Refusé', 'Annulé'))
);
--> statement-breakpoint
CREATE TABLE "comments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"mission_id" uuid,
	"batch_id" uuid,
	"technician_id" uuid NOT NULL,
	"author_role" text DEFAULT 'admin' NOT NULL,
	"content" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "comments_author_role_check" CHECK (author_role in ('admin', 'technician'))
);
--> statement-breakpoint
CREATE TABLE "learning_resources" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"type" text DEFAULT 'document' NOT NULL,
	"url" text NOT NULL,
	"duration" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "learning_resources_type_check" CHECK (type in ('document', 'video', 'interactive', 'pdf', 'other')),
	CONSTRAINT "learning_resources_duration_check" CHECK ("learning_resources"."duration" is null or "learning_resources"."duration" >= 1)
);
--> statement-breakpoint
CREATE TABLE "mission_visits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"mission_id" uuid NOT NULL,
	"technician_id" uuid NOT NULL,
	"visit_date" timestamp with time zone,
	"report" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "resource_views" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"resource_id" uuid NOT NULL,
	"technician_id" uuid NOT NULL,
	"viewed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "resource_views_unique" UNIQUE("resource_id","technician_id")
);
--> statement-breakpoint
CREATE TABLE "revenus" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"technician_id" uuid NOT NULL,
	"batch_id" uuid,
	"status" text DEFAULT 'Mission à terminer' NOT NULL,
	"applied_at" timestamp with time zone,
	"amount_cents" integer DEFAULT 0 NOT NULL,
	"reference" text DEFAULT 'Néant' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shipments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"batch_id" uuid,
	"technician_id" uuid,
	"mission_id" uuid,
	"tracking_number" text,
	"carrier" text DEFAULT 'Mondial Relay' NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"shipped_date" timestamp with time zone,
	"delivered_date" timestamp with time zone,
	"destination" text,
	"destination_postal_code" text,
	"content" text,
	"mission_title" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shipments_status_check" CHECK (status in ('draft', 'in_transit', 'delivered', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "technician_mission_data" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"mission_id" uuid NOT NULL,
	"technician_id" uuid NOT NULL,
	"planned_visit_date" timestamp with time zone,
	"is_completed" boolean DEFAULT false NOT NULL,
	"technician_comments" text,
	"admin_comments" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "technician_mission_data_unique" UNIQUE("mission_id","technician_id")
);
--> statement-breakpoint
CREATE TABLE "email_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_outbox_status_check" CHECK (status in ('pending', 'sent', 'logged', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"technician_id" uuid NOT NULL,
	"batch_id" uuid,
	"amount_cents" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'Mission à terminer' NOT NULL,
	"invoice_date" timestamp with time zone,
	"due_date" timestamp with time zone,
	"paid_date" timestamp with time zone,
	"invoice_number" text,
	"description" text,
	"mission_title" text,
	"initial_amount_cents" integer DEFAULT 0 NOT NULL,
	"validated_amount_cents" integer DEFAULT 0 NOT NULL,
	"batch_price_cents" integer DEFAULT 0 NOT NULL,
	"progression" text DEFAULT '0/0' NOT NULL,
	"reference" text DEFAULT 'Néant' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_status_check" CHECK (status in ('Mission à terminer', 'Facture à soumettre', 'Facture envoyée', 'Traité', 'Terminé'))
);
--> statement-breakpoint
CREATE TABLE "invoices_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"technician_id" uuid NOT NULL,
	"reference" text NOT NULL,
	"file_id" uuid NOT NULL,
	"amount_certified_cents" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transfers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"batch_id" uuid,
	"technician_id" uuid NOT NULL,
	"invoice_id" uuid,
	"status" text DEFAULT 'Enregistré' NOT NULL,
	"transfer_date" timestamp with time zone,
	"invoice_ref" text NOT NULL,
	"transfer_ref" text,
	"bank_account_last4" text,
	"amount_cents" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transfers_status_check" CHECK (status in ('Enregistré', 'Effectué', 'Refus'))
);
--> statement-breakpoint
ALTER TABLE "password_reset_tokens" ADD CONSTRAINT "password_reset_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stored_files" ADD CONSTRAINT "stored_files_technician_id_technicians_id_fk" FOREIGN KEY ("technician_id") REFERENCES "public"."technicians"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "technicians" ADD CONSTRAINT "technicians_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "missions" ADD CONSTRAINT "missions_batch_id_mission_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."mission_batches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_batch_id_mission_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."mission_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_technician_id_technicians_id_fk" FOREIGN KEY ("technician_id") REFERENCES "public"."technicians"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_batch_id_mission_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."mission_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_technician_id_technicians_id_fk" FOREIGN KEY ("technician_id") REFERENCES "public"."technicians"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mission_visits" ADD CONSTRAINT "mission_visits_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mission_visits" ADD CONSTRAINT "mission_visits_technician_id_technicians_id_fk" FOREIGN KEY ("technician_id") REFERENCES "public"."technicians"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resource_views" ADD CONSTRAINT "resource_views_resource_id_learning_resources_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."learning_resources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resource_views" ADD CONSTRAINT "resource_views_technician_id_technicians_id_fk" FOREIGN KEY ("technician_id") REFERENCES "public"."technicians"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "revenus" ADD CONSTRAINT "revenus_technician_id_technicians_id_fk" FOREIGN KEY ("technician_id") REFERENCES "public"."technicians"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "revenus" ADD CONSTRAINT "revenus_batch_id_mission_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."mission_batches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_batch_id_mission_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."mission_batches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_technician_id_technicians_id_fk" FOREIGN KEY ("technician_id") REFERENCES "public"."technicians"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "technician_mission_data" ADD CONSTRAINT "technician_mission_data_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "technician_mission_data" ADD CONSTRAINT "technician_mission_data_technician_id_technicians_id_fk" FOREIGN KEY ("technician_id") REFERENCES "public"."technicians"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_technician_id_technicians_id_fk" FOREIGN KEY ("technician_id") REFERENCES "public"."technicians"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_batch_id_mission_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."mission_batches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices_files" ADD CONSTRAINT "invoices_files_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices_files" ADD CONSTRAINT "invoices_files_technician_id_technicians_id_fk" FOREIGN KEY ("technician_id") REFERENCES "public"."technicians"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices_files" ADD CONSTRAINT "invoices_files_file_id_stored_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."stored_files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_batch_id_mission_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."mission_batches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_technician_id_technicians_id_fk" FOREIGN KEY ("technician_id") REFERENCES "public"."technicians"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "password_reset_tokens_user_idx" ON "password_reset_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "stored_files_technician_idx" ON "stored_files" USING btree ("technician_id");--> statement-breakpoint
CREATE INDEX "technicians_status_idx" ON "technicians" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "technicians_departments_idx" ON "technicians" USING gin ("departments");--> statement-breakpoint
CREATE INDEX "technicians_email_idx" ON "technicians" USING btree ("email");--> statement-breakpoint
CREATE INDEX "jobs_status_idx" ON "jobs" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_pending_unique_idx" ON "jobs" USING btree ("serial_number","visit_type") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "mission_batches_listing_idx" ON "mission_batches" USING btree ("visibility","status","created_at");--> statement-breakpoint
CREATE INDEX "mission_batches_departments_idx" ON "mission_batches" USING gin ("departments");--> statement-breakpoint
CREATE INDEX "mission_batches_tags_idx" ON "mission_batches" USING gin ("tags");--> statement-breakpoint
CREATE UNIQUE INDEX "mission_batches_single_system_idx" ON "mission_batches" USING btree ("is_system") WHERE is_system;--> statement-breakpoint
CREATE INDEX "missions_batch_idx" ON "missions" USING btree ("batch_id");--> statement-breakpoint
CREATE INDEX "missions_status_idx" ON "missions" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "missions_department_idx" ON "missions" USING btree ("department");--> statement-breakpoint
CREATE UNIQUE INDEX "applications_one_recruit_per_batch_idx" ON "applications" USING btree ("batch_id") WHERE status in ('Recruté', 'Terminé');--> statement-breakpoint
CREATE INDEX "applications_batch_idx" ON "applications" USING btree ("batch_id","status");--> statement-breakpoint
CREATE INDEX "applications_technician_idx" ON "applications" USING btree ("technician_id","status");--> statement-breakpoint
CREATE INDEX "applications_mission_idx" ON "applications" USING btree ("mission_id");--> statement-breakpoint
CREATE INDEX "comments_batch_idx" ON "comments" USING btree ("batch_id","technician_id");--> statement-breakpoint
CREATE INDEX "comments_mission_idx" ON "comments" USING btree ("mission_id");--> statement-breakpoint
CREATE INDEX "comments_technician_idx" ON "comments" USING btree ("technician_id");--> statement-breakpoint
CREATE INDEX "mission_visits_mission_idx" ON "mission_visits" USING btree ("mission_id");--> statement-breakpoint
CREATE INDEX "mission_visits_technician_idx" ON "mission_visits" USING btree ("technician_id");--> statement-breakpoint
CREATE INDEX "resource_views_technician_idx" ON "resource_views" USING btree ("technician_id");--> statement-breakpoint
CREATE INDEX "revenus_technician_idx" ON "revenus" USING btree ("technician_id");--> statement-breakpoint
CREATE INDEX "revenus_batch_idx" ON "revenus" USING btree ("batch_id");--> statement-breakpoint
CREATE INDEX "shipments_technician_idx" ON "shipments" USING btree ("technician_id","status");--> statement-breakpoint
CREATE INDEX "shipments_batch_idx" ON "shipments" USING btree ("batch_id");--> statement-breakpoint
CREATE INDEX "shipments_status_idx" ON "shipments" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "technician_mission_data_technician_idx" ON "technician_mission_data" USING btree ("technician_id");--> statement-breakpoint
CREATE INDEX "email_outbox_pending_idx" ON "email_outbox" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "invoices_technician_idx" ON "invoices" USING btree ("technician_id","status");--> statement-breakpoint
CREATE INDEX "invoices_status_idx" ON "invoices" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_batch_technician_idx" ON "invoices" USING btree ("batch_id","technician_id");--> statement-breakpoint
CREATE INDEX "invoices_files_invoice_idx" ON "invoices_files" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "invoices_files_technician_idx" ON "invoices_files" USING btree ("technician_id");--> statement-breakpoint
CREATE INDEX "transfers_technician_idx" ON "transfers" USING btree ("technician_id","status");--> statement-breakpoint
CREATE INDEX "transfers_status_idx" ON "transfers" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "transfers_one_live_per_invoice_idx" ON "transfers" USING btree ("invoice_id") WHERE status <> 'Refus';