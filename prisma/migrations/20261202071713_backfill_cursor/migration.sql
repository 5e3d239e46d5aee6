-- CreateTable
CREATE TABLE "BackfillCursor" (
    "exchange" TEXT NOT NULL,
    "market" TEXT NOT NULL,
    "base" TEXT NOT NULL,
    "venueMarketId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "coveredSince" TIMESTAMP(3),
    "coveredUntil" TIMESTAMP(3),
    "walkSince" TIMESTAMP(3),
    "walkUntil" TIMESTAMP(3),
    "pageCursor" TEXT,
    "rows" INTEGER NOT NULL DEFAULT 0,
    "oldestSettlement" TIMESTAMP(3),
    "newestSettlement" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BackfillCursor_pkey" PRIMARY KEY ("exchange","market")
);

-- CreateIndex
CREATE INDEX "BackfillCursor_exchange_status_nextAttemptAt_idx" ON "BackfillCursor"("exchange", "status", "nextAttemptAt");
