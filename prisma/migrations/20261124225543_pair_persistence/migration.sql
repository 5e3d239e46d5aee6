-- CreateTable
CREATE TABLE "PairPersistenceSet" (
    "through" TIMESTAMP(3) NOT NULL,
    "claimedAt" TIMESTAMP(3) NOT NULL,
    "computedAt" TIMESTAMP(3),
    "pairs" BYTEA,

    CONSTRAINT "PairPersistenceSet_pkey" PRIMARY KEY ("through")
);
