-- CreateTable
CREATE TABLE "FundingIntervalChange" (
    "exchange" TEXT NOT NULL,
    "market" TEXT NOT NULL,
    "base" TEXT NOT NULL,
    "effectiveAt" TIMESTAMP(3) NOT NULL,
    "fromHours" DOUBLE PRECISION NOT NULL,
    "toHours" DOUBLE PRECISION NOT NULL,
    "source" TEXT NOT NULL,
    "detectedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "FundingIntervalChange_pkey" PRIMARY KEY ("exchange","market","effectiveAt")
);

-- CreateIndex
CREATE INDEX "FundingIntervalChange_exchange_base_effectiveAt_idx" ON "FundingIntervalChange"("exchange", "base", "effectiveAt");

-- CreateIndex
CREATE INDEX "FundingIntervalChange_effectiveAt_idx" ON "FundingIntervalChange"("effectiveAt");
