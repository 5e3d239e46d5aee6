-- CreateTable
CREATE TABLE "VenueFeedStatus" (
    "venue" TEXT NOT NULL,
    "transport" TEXT NOT NULL,
    "transportReason" TEXT,
    "lastMessageAt" TIMESTAMP(3),
    "reconnects24h" INTEGER NOT NULL DEFAULT 0,
    "latencyP50Ms" DOUBLE PRECISION,
    "latencyP99Ms" DOUBLE PRECISION,
    "latencySamples" INTEGER NOT NULL DEFAULT 0,
    "pollIntervalMs" INTEGER,
    "series" JSONB NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "VenueFeedStatus_pkey" PRIMARY KEY ("venue")
);
