-- GET /v1/funding-rates reads one asset on one venue, 30 days ordered by time then market, and
-- counts them. This index serves both from the index alone (index-only scans): it leads with the
-- filter and order of that read and holds every other column the page returns, so the month of a
-- market is a few contiguous leaf pages whatever order its rows sit in on the heap
-- (docs/decisions/history-storage.md). The extra columns are key columns rather than INCLUDE ones
-- because the Prisma schema cannot say INCLUDE. No semicolon may appear inside a statement or a
-- comment here: the PostgreSQL adapter splits a migration at every one.

-- DropIndex
DROP INDEX "FundingRate_exchange_base_time_idx";

-- CreateIndex
CREATE INDEX "FundingRate_settlement_page_idx" ON "FundingRate"("exchange", "base", "time", "market", "rate", "intervalHours", "source");

-- An index-only scan reads the heap for every row on a page the visibility map does not yet mark
-- all-visible, that is, written since the partition was last vacuumed. By default autovacuum vacuums
-- an insert-only table after a fifth of its size in new rows, days of the settlements of a month. Month
-- partitions are made with these two settings by lib/history/store/settlement-partitions.ts, so one
-- is vacuumed after every 100,000 new rows, a few hours of live settlements. The default partition
-- gets them here.
ALTER TABLE "FundingRate_default" SET (autovacuum_vacuum_insert_threshold = 100000, autovacuum_vacuum_insert_scale_factor = 0);
