-- CreateIndex
CREATE INDEX "tasks_client_id_created_at_id_idx" ON "dispatch"."tasks"("client_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "tasks_created_at_id_idx" ON "dispatch"."tasks"("created_at", "id");

-- CreateIndex
CREATE INDEX "tasks_client_id_sent_at_idx" ON "dispatch"."tasks"("client_id", "sent_at");

-- CreateIndex
CREATE INDEX "tasks_sent_at_idx" ON "dispatch"."tasks"("sent_at");

-- CreateIndex
CREATE INDEX "tasks_client_id_failed_at_idx" ON "dispatch"."tasks"("client_id", "failed_at");

-- CreateIndex
CREATE INDEX "tasks_failed_at_idx" ON "dispatch"."tasks"("failed_at");
