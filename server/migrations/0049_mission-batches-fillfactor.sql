-- Room on each page of mission_batches for a lot's next version (decision 066). A lot is written with every device
-- toggled, application, comment or mission edited (its figures, its list JSON), and its row is large (its missions'
-- text and JSON: about 2 KB stored). Pages filled to the brim left no room for the new version on the same page, so 94 %
-- of the updates were not HOT: each wrote a new entry in every index of the table, among them two trigram indexes of
-- about a thousand trigrams each, which also grew their pending lists that every search of lots then read.
-- Half-filled pages keep two lots and the room for their next versions: an update that changes no indexed column (the
-- figures, the JSON) stays on its page and writes no index.
-- Pages written before this keep their fill until their lots move to new pages or VACUUM FULL rewrites the table: the
-- rewrite locks the table, so it is left to the operator (README, Upgrades).
alter table mission_batches set (fillfactor = 50);
