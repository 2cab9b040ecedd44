-- DropIndex
DROP INDEX "dispatch"."tasks_phone_id_status_scheduled_at_idx";

-- DropIndex
DROP INDEX "dispatch"."tasks_status_scheduled_at_idx";

-- CreateTable
CREATE TABLE "dispatch"."outbox_messages" (
    "id" BIGSERIAL NOT NULL,
    "pattern" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,

    CONSTRAINT "outbox_messages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "tasks_status_scheduled_at_id_idx" ON "dispatch"."tasks"("status", "scheduled_at", "id");

-- CreateIndex
CREATE INDEX "tasks_phone_id_status_scheduled_at_id_idx" ON "dispatch"."tasks"("phone_id", "status", "scheduled_at", "id");

-- CreateIndex
CREATE INDEX "tasks_recipient_created_at_idx" ON "dispatch"."tasks"("recipient", "created_at");

-- CreateIndex
CREATE INDEX "outbox_messages_published_at_id_idx" ON "dispatch"."outbox_messages"("published_at", "id");
