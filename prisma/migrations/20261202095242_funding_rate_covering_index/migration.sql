-- GET /v1/funding-rates reads one asset on one venue, 30 days ordered by time then market, and
-- counts them. This index serves both from the index alone (an index-only scan): its key is the
-- query's filter and order, and it carries every other column the page returns, so a market's month
-- is a few contiguous leaf pages whatever order its rows sit in on the heap
-- (docs/decisions/history-storage.md). Prisma's schema cannot say INCLUDE, so it is said here and
-- the schema names the key columns only. No semicolon may appear inside a statement or a comment
-- here: the PostgreSQL adapter splits a migration at every one.

DROP INDEX "FundingRate_exchange_base_time_idx";

CREATE INDEX "FundingRate_exchange_base_time_market_idx" ON "FundingRate"("exchange", "base", "time", "market") INCLUDE ("rate", "intervalHours", "source");

-- An index-only scan reads the heap for every row on a page the visibility map does not yet mark
-- all-visible, that is, written since the partition was last vacuumed. By default autovacuum vacuums
-- an insert-only table after 20 % of its size in new rows, days of a month's settlements. Month
-- partitions are made with these same two settings by lib/history/store/settlement-partitions.ts,
-- so a partition is vacuumed after every 100,000 new rows, a few hours of live settlements.
ALTER TABLE "FundingRate_default" SET (autovacuum_vacuum_insert_threshold = 100000, autovacuum_vacuum_insert_scale_factor = 0);
