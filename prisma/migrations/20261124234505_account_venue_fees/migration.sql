-- CreateTable
CREATE TABLE "AccountVenueFee" (
    "userId" TEXT NOT NULL,
    "exchange" TEXT NOT NULL,
    "takerFee" DOUBLE PRECISION NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AccountVenueFee_pkey" PRIMARY KEY ("userId","exchange")
);

-- AddForeignKey
ALTER TABLE "AccountVenueFee" ADD CONSTRAINT "AccountVenueFee_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
