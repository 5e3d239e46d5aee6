-- CreateTable
CREATE TABLE "IngestionRound" (
    "id" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),
    "status" TEXT NOT NULL,
    "venues" JSONB NOT NULL DEFAULT '[]',
    "opportunities" INTEGER,
    "error" TEXT,
    "aggregatedAt" TIMESTAMP(3),

    CONSTRAINT "IngestionRound_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RoundSnapshot" (
    "id" BIGSERIAL NOT NULL,
    "roundId" TEXT NOT NULL,
    "exchange" TEXT NOT NULL,
    "market" TEXT NOT NULL,
    "venueMarketId" TEXT NOT NULL,
    "base" TEXT NOT NULL,
    "venueBase" TEXT NOT NULL,
    "contractMultiplier" DOUBLE PRECISION NOT NULL,
    "quote" TEXT NOT NULL,
    "settle" TEXT NOT NULL,
    "fundingRate" DOUBLE PRECISION,
    "fundingIntervalHours" DOUBLE PRECISION,
    "fundingIntervalSource" TEXT,
    "nextFundingAt" TIMESTAMP(3),
    "markPrice" DOUBLE PRECISION,
    "indexPrice" DOUBLE PRECISION,
    "openInterestUsd" DOUBLE PRECISION,
    "volume24hUsd" DOUBLE PRECISION,
    "takerFee" DOUBLE PRECISION,
    "observedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RoundSnapshot_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FundingRate" (
    "exchange" TEXT NOT NULL,
    "market" TEXT NOT NULL,
    "base" TEXT NOT NULL,
    "time" TIMESTAMP(3) NOT NULL,
    "rate" DOUBLE PRECISION NOT NULL,
    "intervalHours" DOUBLE PRECISION,
    "source" TEXT NOT NULL,

    CONSTRAINT "FundingRate_pkey" PRIMARY KEY ("exchange","market","time")
);

-- CreateTable
CREATE TABLE "FundingRateHourly" (
    "exchange" TEXT NOT NULL,
    "market" TEXT NOT NULL,
    "base" TEXT NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "samples" INTEGER NOT NULL,
    "rateSum" DOUBLE PRECISION NOT NULL,
    "aprSum" DOUBLE PRECISION NOT NULL,
    "rateMin" DOUBLE PRECISION NOT NULL,
    "rateMax" DOUBLE PRECISION NOT NULL,
    "intervalHours" DOUBLE PRECISION,
    "markPriceLast" DOUBLE PRECISION,

    CONSTRAINT "FundingRateHourly_pkey" PRIMARY KEY ("exchange","market","hour")
);

-- CreateTable
CREATE TABLE "VenueHealth" (
    "id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "lastSuccessAt" TIMESTAMP(3),
    "lastAttemptAt" TIMESTAMP(3) NOT NULL,
    "lastError" TEXT,
    "marketsCount" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "VenueHealth_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "IngestionRound_startedAt_idx" ON "IngestionRound"("startedAt");

-- CreateIndex
CREATE INDEX "IngestionRound_aggregatedAt_startedAt_idx" ON "IngestionRound"("aggregatedAt", "startedAt");

-- CreateIndex
CREATE INDEX "RoundSnapshot_roundId_idx" ON "RoundSnapshot"("roundId");

-- CreateIndex
CREATE INDEX "RoundSnapshot_exchange_market_observedAt_idx" ON "RoundSnapshot"("exchange", "market", "observedAt" DESC);

-- CreateIndex
CREATE INDEX "RoundSnapshot_observedAt_idx" ON "RoundSnapshot"("observedAt");

-- CreateIndex
CREATE INDEX "FundingRate_exchange_base_time_idx" ON "FundingRate"("exchange", "base", "time");

-- CreateIndex
CREATE INDEX "FundingRate_time_idx" ON "FundingRate"("time");

-- CreateIndex
CREATE INDEX "FundingRateHourly_exchange_base_hour_idx" ON "FundingRateHourly"("exchange", "base", "hour");

-- CreateIndex
CREATE INDEX "FundingRateHourly_hour_idx" ON "FundingRateHourly"("hour");

-- AddForeignKey
ALTER TABLE "RoundSnapshot" ADD CONSTRAINT "RoundSnapshot_roundId_fkey" FOREIGN KEY ("roundId") REFERENCES "IngestionRound"("id") ON DELETE CASCADE ON UPDATE CASCADE;
