-- DropForeignKey
ALTER TABLE "RoundSnapshot" DROP CONSTRAINT "RoundSnapshot_roundId_fkey";

-- DropIndex
DROP INDEX "RoundSnapshot_observedAt_idx";
