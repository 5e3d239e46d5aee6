-- AlterTable
ALTER TABLE "OpportunityPatch" ADD COLUMN     "venues" JSONB;
