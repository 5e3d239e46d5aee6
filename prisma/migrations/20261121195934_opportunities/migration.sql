-- CreateTable
CREATE TABLE "Opportunity" (
    "id" TEXT NOT NULL,
    "symbol" TEXT NOT NULL,
    "longExchange" TEXT NOT NULL,
    "shortExchange" TEXT NOT NULL,
    "apr" DOUBLE PRECISION NOT NULL,
    "netApr" DOUBLE PRECISION NOT NULL,
    "openInterestUsd" DOUBLE PRECISION,
    "payload" JSONB NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Opportunity_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OpportunitySet" (
    "id" TEXT NOT NULL DEFAULT 'live',
    "version" INTEGER NOT NULL DEFAULT 0,
    "asOf" TIMESTAMP(3) NOT NULL,
    "sample" BOOLEAN NOT NULL DEFAULT false,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OpportunitySet_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Opportunity_symbol_idx" ON "Opportunity"("symbol");
