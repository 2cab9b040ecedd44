-- CreateIndex: retention keeps a finished task while a pending delivery still renders its body from it (only pending ones are looked up).
CREATE INDEX "webhook_deliveries_task_id_idx" ON "dispatch"."webhook_deliveries"("task_id") WHERE "status" = 'pending';
