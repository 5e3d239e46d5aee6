-- AlterTable
ALTER TABLE "IngestionRound" ADD COLUMN     "spotVenues" JSONB;

-- CreateTable
CREATE TABLE "BorrowRate" (
    "exchange" TEXT NOT NULL,
    "asset" TEXT NOT NULL,
    "time" TIMESTAMP(3) NOT NULL,
    "rate" DOUBLE PRECISION NOT NULL,
    "period" TEXT NOT NULL,
    "aprPct" DOUBLE PRECISION NOT NULL,
    "borrowable" DOUBLE PRECISION,
    "source" TEXT NOT NULL,
    "observedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "BorrowRate_pkey" PRIMARY KEY ("exchange","asset","time")
);

-- CreateIndex
CREATE INDEX "BorrowRate_time_idx" ON "BorrowRate"("time");
