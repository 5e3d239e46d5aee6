-- A round's fold upserts the current hour's row of every market (aggregate-rounds.ts, 26,000 rows at
-- 46 venues). Keyed (exchange, market, hour), those rows were each on a leaf page of its own, and the
-- upsert probed 26,000 pages of the key, mostly outside shared_buffers: ~1.1 s of the database for
-- a fold on 4.3 million rows, heap-only updates and all. Keyed by hour first, they are neighbours on a
-- few hundred pages (~0.17 s). The hour index goes: the key's first column serves what it served
-- (retention, the averages' and persistence's hour ranges).
-- DropIndex
DROP INDEX "FundingRateHourly_hour_idx";

-- AlterTable
ALTER TABLE "FundingRateHourly" DROP CONSTRAINT "FundingRateHourly_pkey",
ADD CONSTRAINT "FundingRateHourly_pkey" PRIMARY KEY ("hour", "exchange", "market");
