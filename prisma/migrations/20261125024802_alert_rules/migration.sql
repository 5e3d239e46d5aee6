-- AlterTable
ALTER TABLE "MarketEvent" ADD COLUMN     "userId" TEXT;

-- CreateTable
CREATE TABLE "AlertRule" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "keyMode" "KeyMode" NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "symbol" TEXT,
    "exchanges" TEXT[],
    "minNetApr" DOUBLE PRECISION,
    "minPaidShare7d" DOUBLE PRECISION,
    "minPositiveHours" DOUBLE PRECISION,
    "minOpenInterestUsd" DOUBLE PRECISION,
    "cooldownMinutes" INTEGER NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AlertRule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AlertCooldown" (
    "ruleId" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "triggeredAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AlertCooldown_pkey" PRIMARY KEY ("ruleId","subject")
);

-- CreateTable
CREATE TABLE "AlertCursor" (
    "id" TEXT NOT NULL DEFAULT 'alerts',
    "sequence" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "AlertCursor_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "_AlertRuleToWebhookEndpoint" (
    "A" TEXT NOT NULL,
    "B" TEXT NOT NULL,

    CONSTRAINT "_AlertRuleToWebhookEndpoint_AB_pkey" PRIMARY KEY ("A","B")
);

-- CreateIndex
CREATE INDEX "AlertRule_userId_keyMode_createdAt_idx" ON "AlertRule"("userId", "keyMode", "createdAt");

-- CreateIndex
CREATE INDEX "AlertRule_enabled_keyMode_idx" ON "AlertRule"("enabled", "keyMode");

-- CreateIndex
CREATE INDEX "AlertCooldown_triggeredAt_idx" ON "AlertCooldown"("triggeredAt");

-- CreateIndex
CREATE INDEX "_AlertRuleToWebhookEndpoint_B_index" ON "_AlertRuleToWebhookEndpoint"("B");

-- CreateIndex
CREATE INDEX "MarketEvent_userId_sequence_idx" ON "MarketEvent"("userId", "sequence");

-- AddForeignKey
ALTER TABLE "MarketEvent" ADD CONSTRAINT "MarketEvent_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AlertRule" ADD CONSTRAINT "AlertRule_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AlertCooldown" ADD CONSTRAINT "AlertCooldown_ruleId_fkey" FOREIGN KEY ("ruleId") REFERENCES "AlertRule"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "_AlertRuleToWebhookEndpoint" ADD CONSTRAINT "_AlertRuleToWebhookEndpoint_A_fkey" FOREIGN KEY ("A") REFERENCES "AlertRule"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "_AlertRuleToWebhookEndpoint" ADD CONSTRAINT "_AlertRuleToWebhookEndpoint_B_fkey" FOREIGN KEY ("B") REFERENCES "WebhookEndpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;
