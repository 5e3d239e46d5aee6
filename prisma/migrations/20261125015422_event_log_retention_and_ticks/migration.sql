-- CreateTable
CREATE TABLE "MarketEventRetention" (
    "id" TEXT NOT NULL,
    "deletedThrough" BIGINT NOT NULL,

    CONSTRAINT "MarketEventRetention_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SandboxEventTick" (
    "startsAt" TIMESTAMP(3) NOT NULL,
    "writtenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SandboxEventTick_pkey" PRIMARY KEY ("startsAt")
);
