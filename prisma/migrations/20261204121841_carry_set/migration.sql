-- CreateTable
CREATE TABLE "CarrySet" (
    "id" TEXT NOT NULL DEFAULT 'live',
    "version" INTEGER NOT NULL DEFAULT 0,
    "asOf" TIMESTAMP(3) NOT NULL,
    "sample" BOOLEAN NOT NULL DEFAULT false,
    "items" BYTEA NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CarrySet_pkey" PRIMARY KEY ("id")
);
