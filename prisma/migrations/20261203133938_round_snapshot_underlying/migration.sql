-- AlterTable
ALTER TABLE "RoundSnapshot" ADD COLUMN     "tradingHours" TEXT,
ADD COLUMN     "underlyingClass" TEXT;
