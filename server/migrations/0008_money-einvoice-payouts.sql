CREATE TABLE "payout_batch_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"batch_id" uuid NOT NULL,
	"line_number" integer NOT NULL,
	"transfer_id" uuid,
	"invoice_id" uuid,
	"technician_id" uuid,
	"creditor_name" text NOT NULL,
	"creditor_iban" text NOT NULL,
	"iban_changed" boolean DEFAULT false NOT NULL,
	"amount_cents" integer NOT NULL,
	"remittance" text NOT NULL,
	"end_to_end_id" text NOT NULL,
	"status" text DEFAULT 'À payer' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_batch_lines_status_check" CHECK (status in ('À payer', 'Payé', 'Refusé', 'Annulé'))
);
--> statement-breakpoint
CREATE TABLE "payout_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reference" text NOT NULL,
	"status" text DEFAULT 'Préparé' NOT NULL,
	"execution_date" date NOT NULL,
	"debtor_name" text NOT NULL,
	"debtor_iban" text NOT NULL,
	"debtor_bic" text NOT NULL,
	"transfer_count" integer NOT NULL,
	"total_cents" bigint NOT NULL,
	"created_by_user_id" uuid,
	"paid_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_batches_status_check" CHECK (status in ('Préparé', 'Payé', 'Annulé'))
);
--> statement-breakpoint
ALTER TABLE "invoices_files" ADD COLUMN "e_invoice_format" text DEFAULT 'pdf' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices_files" ADD COLUMN "invoice_number_key" text;--> statement-breakpoint
ALTER TABLE "invoices_files" ADD COLUMN "e_invoice" jsonb;--> statement-breakpoint
ALTER TABLE "payout_batch_lines" ADD CONSTRAINT "payout_batch_lines_batch_id_payout_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."payout_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_batch_lines" ADD CONSTRAINT "payout_batch_lines_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_batch_lines" ADD CONSTRAINT "payout_batch_lines_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_batch_lines" ADD CONSTRAINT "payout_batch_lines_technician_id_technicians_id_fk" FOREIGN KEY ("technician_id") REFERENCES "public"."technicians"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_batches" ADD CONSTRAINT "payout_batches_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payout_batch_lines_number_idx" ON "payout_batch_lines" USING btree ("batch_id","line_number");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_batch_lines_one_per_transfer_idx" ON "payout_batch_lines" USING btree ("transfer_id") WHERE status <> 'Annulé';--> statement-breakpoint
CREATE INDEX "payout_batch_lines_technician_idx" ON "payout_batch_lines" USING btree ("technician_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_batches_reference_idx" ON "payout_batches" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "payout_batches_created_idx" ON "payout_batches" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "invoices_files_number_idx" ON "invoices_files" USING btree ("technician_id","invoice_number_key");--> statement-breakpoint
CREATE INDEX "transfers_paid_date_idx" ON "transfers" USING btree ("status","transfer_date");--> statement-breakpoint
ALTER TABLE "invoices_files" ADD CONSTRAINT "invoices_files_e_invoice_format_check" CHECK (e_invoice_format in ('factur-x', 'pdf'));