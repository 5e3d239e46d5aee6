-- AlterTable
ALTER TABLE "IngestionRound" ADD COLUMN     "excludedLegs" JSONB;
