-- AlterTable
ALTER TABLE "dispatch"."outbox_messages" ADD COLUMN "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- CreateIndex: partial, the relay's query only ever looks at unpublished messages
CREATE INDEX "outbox_messages_next_attempt_at_id_idx" ON "dispatch"."outbox_messages"("next_attempt_at", "id") WHERE "published_at" IS NULL;
