-- CreateIndex
CREATE INDEX "messages_client_id_id_idx" ON "inbox"."messages"("client_id", "id");
