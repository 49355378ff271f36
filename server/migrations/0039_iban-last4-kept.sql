-- The IBAN's last four characters kept in the row (docs/decisions/050): the only part of the IBAN an answer shows, so the
-- admin's technician pages, which PostgreSQL writes as JSON, show it by the one rule toTechnician reads.
ALTER TABLE "technicians" ADD COLUMN "iban_last4" text GENERATED ALWAYS AS (nullif(right(regexp_replace(coalesce(iban, ''), '\s', '', 'g'), 4), '')) STORED;
