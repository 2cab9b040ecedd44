-- CreateIndex: a conversation's replies, and its unread count.
CREATE INDEX "messages_client_id_sender_received_at_idx" ON "inbox"."messages"("client_id", "sender", "received_at");
