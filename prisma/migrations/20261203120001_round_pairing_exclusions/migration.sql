-- AlterTable
ALTER TABLE "IngestionRound" ADD COLUMN     "pairingExclusions" JSONB;
