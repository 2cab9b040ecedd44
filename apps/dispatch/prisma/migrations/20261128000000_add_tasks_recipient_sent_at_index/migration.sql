-- CreateIndex: message.received names the latest task sent to the reply's number before it came.
CREATE INDEX "tasks_recipient_sent_at_idx" ON "dispatch"."tasks"("recipient", "sent_at");
