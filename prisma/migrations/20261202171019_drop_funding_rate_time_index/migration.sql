-- DropIndex
DROP INDEX "FundingRate_time_idx";
