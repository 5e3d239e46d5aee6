-- Every round folds each market's observation into its hour's row (aggregate-rounds.ts): a row is
-- inserted once and updated by each later round of the hour, 26,000 rows a round at 46 venues.
-- Updates touch no indexed column, so with room on the page PostgreSQL keeps the new version there
-- (a heap-only tuple) and writes no entry into the table's three indexes.
ALTER TABLE "FundingRateHourly" SET (fillfactor = 50);
