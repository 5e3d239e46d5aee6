-- AlterTable
ALTER TABLE "AuditEvent" ADD COLUMN     "subjectId" TEXT;

-- CreateIndex
CREATE INDEX "AuditEvent_subjectId_at_idx" ON "AuditEvent"("subjectId", "at");
