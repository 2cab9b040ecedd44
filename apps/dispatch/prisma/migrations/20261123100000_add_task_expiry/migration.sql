-- AlterTable
ALTER TABLE "dispatch"."tasks" ADD COLUMN     "expires_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "tasks_status_expires_at_idx" ON "dispatch"."tasks"("status", "expires_at");
