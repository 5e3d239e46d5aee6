-- AlterTable
ALTER TABLE "StripeCustomer" ADD COLUMN     "checkoutExpiresAt" TIMESTAMP(3),
ADD COLUMN     "checkoutSessionId" TEXT;
