-- CreateTable
CREATE TABLE "MarketEvent" (
    "sequence" BIGSERIAL NOT NULL,
    "mode" "KeyMode" NOT NULL,
    "type" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "data" JSONB NOT NULL,

    CONSTRAINT "MarketEvent_pkey" PRIMARY KEY ("sequence")
);

-- CreateIndex
CREATE INDEX "MarketEvent_mode_sequence_idx" ON "MarketEvent"("mode", "sequence");

-- CreateIndex
CREATE INDEX "MarketEvent_createdAt_idx" ON "MarketEvent"("createdAt");
