-- AlterTable
ALTER TABLE "OpportunitySet" ADD COLUMN     "itemsVersion" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "OpportunityPatch" (
    "version" INTEGER NOT NULL,
    "bases" TEXT[],
    "items" BYTEA NOT NULL,
    "asOf" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OpportunityPatch_pkey" PRIMARY KEY ("version")
);

-- The set already published was written whole at its version.
UPDATE "OpportunitySet" SET "itemsVersion" = version;
