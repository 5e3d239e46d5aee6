-- The carry set is now stored in columns (lib/market/carry/carry-bytes.ts), which the loader
-- reads alone: a set stored as JSON is dropped, and the next round (or the offline sample at
-- start-up) writes it again in the new form.
DELETE FROM "CarrySet";
