-- AlterTable
ALTER TABLE "RoundSnapshot" ADD COLUMN     "predictedFundingRate" DOUBLE PRECISION,
ADD COLUMN     "rateCap" DOUBLE PRECISION,
ADD COLUMN     "rateFloor" DOUBLE PRECISION;
