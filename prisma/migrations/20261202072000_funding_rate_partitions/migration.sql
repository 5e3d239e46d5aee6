-- FundingRate becomes a table partitioned by month of "time" (docs/decisions/history-storage.md),
-- with the same columns, primary key and indexes, so the Prisma schema is unchanged. Existing rows
-- are copied into the DEFAULT partition, which takes any row whose month has no partition yet.
-- lib/history/store/settlement-partitions.ts makes the month partitions (FundingRate_pYYYYMM) and
-- moves such rows into them. No semicolon may appear inside a statement or a comment here: the
-- PostgreSQL adapter splits a migration at every one.

ALTER TABLE "FundingRate" RENAME TO "FundingRate_unpartitioned";
ALTER TABLE "FundingRate_unpartitioned" RENAME CONSTRAINT "FundingRate_pkey" TO "FundingRate_unpartitioned_pkey";
ALTER INDEX "FundingRate_exchange_base_time_idx" RENAME TO "FundingRate_unpartitioned_exchange_base_time_idx";
ALTER INDEX "FundingRate_time_idx" RENAME TO "FundingRate_unpartitioned_time_idx";

CREATE TABLE "FundingRate" (
    "exchange" TEXT NOT NULL,
    "market" TEXT NOT NULL,
    "base" TEXT NOT NULL,
    "time" TIMESTAMP(3) NOT NULL,
    "rate" DOUBLE PRECISION NOT NULL,
    "intervalHours" DOUBLE PRECISION,
    "source" TEXT NOT NULL,

    CONSTRAINT "FundingRate_pkey" PRIMARY KEY ("exchange","market","time")
) PARTITION BY RANGE ("time");

CREATE INDEX "FundingRate_exchange_base_time_idx" ON "FundingRate"("exchange", "base", "time");
CREATE INDEX "FundingRate_time_idx" ON "FundingRate"("time");

CREATE TABLE "FundingRate_default" PARTITION OF "FundingRate" DEFAULT;

INSERT INTO "FundingRate" ("exchange", "market", "base", "time", "rate", "intervalHours", "source")
SELECT "exchange", "market", "base", "time", "rate", "intervalHours", "source" FROM "FundingRate_unpartitioned";

DROP TABLE "FundingRate_unpartitioned";
