-- Device registry, hand-written part (docs/decisions/024-device-registry-and-visit-reports.md).
--
-- 1. The soonest of a device's dates (battery, adult electrodes, paediatric electrodes when present, next maintenance):
--    the registry orders by it and the Parc DAE badge counts on it. The expression is the one of
--    server/src/modules/devices/devices.repository.ts (nextDueExpression); keep both identical.
CREATE INDEX IF NOT EXISTS "devices_next_due_idx" ON "devices" USING btree ((least(
  "battery_expiry", "adult_pads_expiry", case when "pediatric_pads_present" then "pediatric_pads_expiry" end, "next_maintenance_due"
)));--> statement-breakpoint
-- 2. Free-text search of the registry (serial, site, address, commune, manufacturer, model, exploitant): a trigram index
--    on exactly the text devices.repository.ts searches (deviceSearchText).
CREATE INDEX IF NOT EXISTS "devices_search_trgm_idx" ON "devices" USING gin ((lower(
  coalesce("serial_number", '') || ' ' || coalesce("serial_key", '') || ' ' || coalesce("site_name", '') || ' ' ||
  coalesce("address", '') || ' ' || coalesce("postal_code", '') || ' ' || coalesce("city", '') || ' ' ||
  coalesce("manufacturer", '') || ' ' || coalesce("model", '') || ' ' || coalesce("operator_name", '')
)) gin_trgm_ops);--> statement-breakpoint
-- 3. Existing missions get their device: one device per normalised serial number (common/src/device-rules.ts
--    normalizeSerial: NFKC, keep ASCII letters and digits, upper case; a key needs a digit and 3 to 60 characters),
--    filled from the mission about it that knows the most (then the most recent), then every mission with that key
--    points to it.
INSERT INTO "devices" ("serial_number", "serial_key", "manufacturer", "model", "site_name", "address", "postal_code", "city",
  "latitude", "longitude", "site_phone", "site_email")
SELECT DISTINCT ON (k.key)
  trim(m.serial_number),
  k.key,
  CASE WHEN position(' - ' in m.defibrillator_model) > 0 THEN nullif(trim(split_part(m.defibrillator_model, ' - ', 1)), '') END,
  CASE WHEN position(' - ' in m.defibrillator_model) > 0
    THEN nullif(trim(substr(m.defibrillator_model, position(' - ' in m.defibrillator_model) + 3)), '')
    ELSE nullif(trim(m.defibrillator_model), '') END,
  nullif(trim(m.client_name), ''),
  nullif(trim(regexp_replace(coalesce(m.location, ''), ',?\s*\d{5}(\s.*)?$', '')), ''),
  m.postal_code,
  m.city,
  m.latitude,
  m.longitude,
  nullif(trim(m.tel_site), ''),
  nullif(trim(m.email_site), '')
FROM "missions" m
CROSS JOIN LATERAL (SELECT upper(regexp_replace(normalize(m.serial_number, NFKC), '[^A-Za-z0-9]', '', 'g')) AS key) k
WHERE m.serial_number IS NOT NULL AND length(k.key) BETWEEN 3 AND 60 AND k.key ~ '[0-9]'
ORDER BY k.key,
  (m.location IS NOT NULL)::int + (m.defibrillator_model IS NOT NULL)::int + (m.latitude IS NOT NULL)::int + (m.client_name IS NOT NULL)::int
    + (m.tel_site IS NOT NULL)::int + (m.postal_code IS NOT NULL)::int DESC,
  m.created_at DESC, m.id DESC
ON CONFLICT ("serial_key") DO NOTHING;--> statement-breakpoint
UPDATE "missions" m SET "device_id" = d.id
FROM "devices" d
WHERE m.serial_number IS NOT NULL AND m.device_id IS NULL
  AND d.serial_key = upper(regexp_replace(normalize(m.serial_number, NFKC), '[^A-Za-z0-9]', '', 'g'));
