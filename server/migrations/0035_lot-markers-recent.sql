-- The lots' map without a home (a technician without an address, the admin), most recent first: read from this
-- index alone, the walk stopping at its 500 markers, where it read and sorted every marker (docs/decisions/043).
CREATE INDEX "lot_markers_recent_idx" ON "lot_markers" USING btree ("created_at" DESC NULLS FIRST,"batch_id") INCLUDE ("departments", "tags", "marker");
