-- The department of lot_sites compared byte by byte (docs/decisions/032). The (department, site) GiST index of 0017
-- tests the department of every entry it visits on the way to the nearest sites; under the database's collation
-- (C.UTF-8 here, any libc locale elsewhere) each test is a strcoll call, half the time of a department's
-- « Les plus proches ». Department codes are ASCII (« 01 »… « 2A », « 974 »), so equality is the same under "C".
-- Rewrites lot_sites and rebuilds its indexes (a few seconds for 100 000 sites).
ALTER TABLE "lot_sites" ALTER COLUMN "department" SET DATA TYPE text COLLATE "C";
