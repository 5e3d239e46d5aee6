-- CreateTable
CREATE TABLE "ApiUsageHourly" (
    "keyId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "route" TEXT NOT NULL,
    "successes" INTEGER NOT NULL DEFAULT 0,
    "clientErrors" INTEGER NOT NULL DEFAULT 0,
    "rateLimited" INTEGER NOT NULL DEFAULT 0,
    "serverErrors" INTEGER NOT NULL DEFAULT 0,
    "peakPerMinute" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ApiUsageHourly_pkey" PRIMARY KEY ("keyId","hour","route")
);

-- CreateIndex
CREATE INDEX "ApiUsageHourly_userId_hour_idx" ON "ApiUsageHourly"("userId", "hour");

-- CreateIndex
CREATE INDEX "ApiUsageHourly_hour_idx" ON "ApiUsageHourly"("hour");

-- AddForeignKey
ALTER TABLE "ApiUsageHourly" ADD CONSTRAINT "ApiUsageHourly_keyId_fkey" FOREIGN KEY ("keyId") REFERENCES "ApiKey"("id") ON DELETE CASCADE ON UPDATE CASCADE;
