-- CreateTable
CREATE TABLE "OpportunityPatch" (
    "version" INTEGER NOT NULL,
    "bases" TEXT[],
    "items" BYTEA NOT NULL,
    "asOf" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OpportunityPatch_pkey" PRIMARY KEY ("version")
);
