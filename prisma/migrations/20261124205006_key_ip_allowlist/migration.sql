-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "allowedCidrs" TEXT[] DEFAULT ARRAY[]::TEXT[];
