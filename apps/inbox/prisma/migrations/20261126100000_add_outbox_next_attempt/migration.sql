-- AlterTable
ALTER TABLE "inbox"."outbox_events" ADD COLUMN "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- CreateIndex: partial, the relay's query only ever looks at unpublished events
CREATE INDEX "outbox_events_next_attempt_at_id_idx" ON "inbox"."outbox_events"("next_attempt_at", "id") WHERE "published_at" IS NULL;
