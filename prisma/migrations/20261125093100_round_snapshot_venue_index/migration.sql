-- DropIndex
DROP INDEX "RoundSnapshot_roundId_idx";

-- CreateIndex
CREATE INDEX "RoundSnapshot_roundId_exchange_idx" ON "RoundSnapshot"("roundId", "exchange");
