CREATE TABLE "lot_part_shipments" (
	"batch_id" uuid PRIMARY KEY NOT NULL,
	"shipment_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "model_consumables" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"manufacturer" text NOT NULL,
	"model" text NOT NULL,
	"model_key" text NOT NULL,
	"kind" text NOT NULL,
	"item_label" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "model_consumables_kind_check" CHECK (kind in ('battery', 'adult_pads', 'pediatric_pads'))
);
--> statement-breakpoint
CREATE TABLE "parts_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"expiry_margin_days" integer DEFAULT 90 NOT NULL,
	"ship_days_before_visit" integer DEFAULT 7 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "parts_settings_single_check" CHECK ("parts_settings"."id" = 1),
	CONSTRAINT "parts_settings_margin_check" CHECK ("parts_settings"."expiry_margin_days" between 0 and 730),
	CONSTRAINT "parts_settings_ship_days_check" CHECK ("parts_settings"."ship_days_before_visit" between 0 and 90)
);
--> statement-breakpoint
CREATE TABLE "shipment_parts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"shipment_id" uuid NOT NULL,
	"mission_id" uuid NOT NULL,
	"device_id" uuid,
	"kind" text NOT NULL,
	"item_label" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shipment_parts_unique" UNIQUE("shipment_id","mission_id","kind"),
	CONSTRAINT "shipment_parts_kind_check" CHECK (kind in ('battery', 'adult_pads', 'pediatric_pads'))
);
--> statement-breakpoint
ALTER TABLE "lot_part_shipments" ADD CONSTRAINT "lot_part_shipments_batch_id_mission_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."mission_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lot_part_shipments" ADD CONSTRAINT "lot_part_shipments_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_parts" ADD CONSTRAINT "shipment_parts_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_parts" ADD CONSTRAINT "shipment_parts_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_parts" ADD CONSTRAINT "shipment_parts_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "lot_part_shipments_shipment_idx" ON "lot_part_shipments" USING btree ("shipment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "model_consumables_model_kind_idx" ON "model_consumables" USING btree ("model_key","kind");--> statement-breakpoint
CREATE INDEX "shipment_parts_mission_idx" ON "shipment_parts" USING btree ("mission_id");--> statement-breakpoint
-- Reference consumables of the models of the reference list (issue 20); the admin edits them afterwards.
INSERT INTO "model_consumables" ("manufacturer", "model", "model_key", "kind", "item_label") VALUES
  ('Philips', 'HeartStart HS1', 'philips - heartstart hs1', 'battery', 'Batterie Philips M5070A (HeartStart HS1 / FRx)'),
  ('Philips', 'HeartStart HS1', 'philips - heartstart hs1', 'adult_pads', 'Cartouche électrodes adulte Philips SMART Pads HS1 (M5071A)'),
  ('Philips', 'HeartStart HS1', 'philips - heartstart hs1', 'pediatric_pads', 'Cartouche électrodes enfant/nourrisson Philips HS1 (M5072A)'),
  ('Philips', 'HeartStart FRx', 'philips - heartstart frx', 'battery', 'Batterie Philips M5070A (HeartStart HS1 / FRx)'),
  ('Philips', 'HeartStart FRx', 'philips - heartstart frx', 'adult_pads', 'Électrodes adulte Philips SMART Pads II (HeartStart FRx)'),
  ('Philips', 'HeartStart FRx', 'philips - heartstart frx', 'pediatric_pads', 'Clé enfant/nourrisson Philips HeartStart FRx'),
  ('Philips', 'HeartStart FR3', 'philips - heartstart fr3', 'battery', 'Batterie Philips HeartStart FR3'),
  ('Zoll', 'AED Plus', 'zoll - aed plus', 'battery', 'Piles lithium CR123A x10 pour Zoll AED Plus'),
  ('Zoll', 'AED Plus', 'zoll - aed plus', 'adult_pads', 'Électrodes Zoll CPR-D-padz (AED Plus)'),
  ('Zoll', 'AED Plus', 'zoll - aed plus', 'pediatric_pads', 'Électrodes pédiatriques Zoll Pedi-padz II'),
  ('Zoll', 'AED 3', 'zoll - aed 3', 'battery', 'Batterie Zoll AED 3'),
  ('Zoll', 'AED 3', 'zoll - aed 3', 'adult_pads', 'Électrodes Zoll CPR Uni-padz (AED 3)'),
  ('Zoll', 'AED 3', 'zoll - aed 3', 'pediatric_pads', 'Électrodes Zoll CPR Uni-padz (AED 3)'),
  ('Physio-Control', 'LIFEPAK CR Plus', 'physio-control - lifepak cr plus', 'battery', 'Kit CHARGE-PAK + électrodes QUIK-PAK (LIFEPAK CR Plus)'),
  ('Physio-Control', 'LIFEPAK CR Plus', 'physio-control - lifepak cr plus', 'adult_pads', 'Kit CHARGE-PAK + électrodes QUIK-PAK (LIFEPAK CR Plus)'),
  ('Physio-Control', 'LIFEPAK 1000', 'physio-control - lifepak 1000', 'battery', 'Batterie lithium LIFEPAK 1000'),
  ('Physio-Control', 'LIFEPAK 1000', 'physio-control - lifepak 1000', 'adult_pads', 'Électrodes adulte QUIK-COMBO (LIFEPAK 1000)'),
  ('Stryker', 'LIFEPAK CR2', 'stryker - lifepak cr2', 'battery', 'Batterie Stryker LIFEPAK CR2'),
  ('Cardiac Science', 'Powerheart G5', 'cardiac science - powerheart g5', 'battery', 'Batterie Cardiac Science Powerheart G5'),
  ('Cardiac Science', 'Powerheart G5', 'cardiac science - powerheart g5', 'adult_pads', 'Électrodes adulte Cardiac Science Powerheart G5'),
  ('Schiller', 'FRED PA-1', 'schiller - fred pa-1', 'battery', 'Batterie Schiller FRED PA-1'),
  ('Schiller', 'FRED PA-1', 'schiller - fred pa-1', 'adult_pads', 'Électrodes adulte Schiller FRED PA-1 / easyport'),
  ('Schiller', 'FRED easyport plus', 'schiller - fred easyport plus', 'adult_pads', 'Électrodes adulte Schiller FRED PA-1 / easyport'),
  ('Mindray', 'BeneHeart C1A', 'mindray - beneheart c1a', 'battery', 'Batterie Mindray BeneHeart C1A / C2'),
  ('Mindray', 'BeneHeart C2', 'mindray - beneheart c2', 'battery', 'Batterie Mindray BeneHeart C1A / C2'),
  ('HeartSine', 'samaritan PAD 350P', 'heartsine - samaritan pad 350p', 'battery', 'Pad-Pak adulte HeartSine samaritan PAD (batterie + électrodes)'),
  ('HeartSine', 'samaritan PAD 350P', 'heartsine - samaritan pad 350p', 'adult_pads', 'Pad-Pak adulte HeartSine samaritan PAD (batterie + électrodes)'),
  ('HeartSine', 'samaritan PAD 350P', 'heartsine - samaritan pad 350p', 'pediatric_pads', 'Pediatric-Pak HeartSine samaritan PAD'),
  ('HeartSine', 'samaritan PAD 360P', 'heartsine - samaritan pad 360p', 'battery', 'Pad-Pak adulte HeartSine samaritan PAD (batterie + électrodes)'),
  ('HeartSine', 'samaritan PAD 360P', 'heartsine - samaritan pad 360p', 'adult_pads', 'Pad-Pak adulte HeartSine samaritan PAD (batterie + électrodes)'),
  ('HeartSine', 'samaritan PAD 360P', 'heartsine - samaritan pad 360p', 'pediatric_pads', 'Pediatric-Pak HeartSine samaritan PAD'),
  ('HeartSine', 'samaritan PAD 500P', 'heartsine - samaritan pad 500p', 'battery', 'Pad-Pak adulte HeartSine samaritan PAD (batterie + électrodes)'),
  ('HeartSine', 'samaritan PAD 500P', 'heartsine - samaritan pad 500p', 'adult_pads', 'Pad-Pak adulte HeartSine samaritan PAD (batterie + électrodes)'),
  ('HeartSine', 'samaritan PAD 500P', 'heartsine - samaritan pad 500p', 'pediatric_pads', 'Pediatric-Pak HeartSine samaritan PAD'),
  ('Defibtech', 'Lifeline VIEW', 'defibtech - lifeline view', 'battery', 'Batterie Defibtech Lifeline (VIEW / AUTO / ECG)'),
  ('Defibtech', 'Lifeline VIEW', 'defibtech - lifeline view', 'adult_pads', 'Électrodes adulte Defibtech Lifeline'),
  ('Defibtech', 'Lifeline AUTO', 'defibtech - lifeline auto', 'battery', 'Batterie Defibtech Lifeline (VIEW / AUTO / ECG)'),
  ('Defibtech', 'Lifeline AUTO', 'defibtech - lifeline auto', 'adult_pads', 'Électrodes adulte Defibtech Lifeline'),
  ('Defibtech', 'Lifeline ECG', 'defibtech - lifeline ecg', 'battery', 'Batterie Defibtech Lifeline (VIEW / AUTO / ECG)'),
  ('Defibtech', 'Lifeline ECG', 'defibtech - lifeline ecg', 'adult_pads', 'Électrodes adulte Defibtech Lifeline');
--> statement-breakpoint
INSERT INTO "parts_settings" ("id") VALUES (1);
