-- The registry's order is the soonest due date, then the serial key (devices.repository.ts listDevices): the index of
-- 0012 held the date alone, so a page sorted every device with the same date; with the serial key after it, a page
-- walks the index and stops (docs/decisions/029). The expression stays the one of nextDueExpression.
DROP INDEX IF EXISTS "devices_next_due_idx";--> statement-breakpoint
CREATE INDEX "devices_next_due_idx" ON "devices" USING btree (least("battery_expiry", "adult_pads_expiry", case when "pediatric_pads_present" then "pediatric_pads_expiry" end, "next_maintenance_due"),"serial_key");
