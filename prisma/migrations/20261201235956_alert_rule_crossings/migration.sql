-- AlterTable
ALTER TABLE "AlertRule" ADD COLUMN     "notifyOnClear" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "AlertRuleState" (
    "ruleId" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "enteredAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AlertRuleState_pkey" PRIMARY KEY ("ruleId","subject")
);

-- AddForeignKey
ALTER TABLE "AlertRuleState" ADD CONSTRAINT "AlertRuleState_ruleId_fkey" FOREIGN KEY ("ruleId") REFERENCES "AlertRule"("id") ON DELETE CASCADE ON UPDATE CASCADE;
