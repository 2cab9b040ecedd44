-- CreateTable
CREATE TABLE "dispatch"."conversations" (
    "client_id" INTEGER NOT NULL,
    "number" TEXT NOT NULL,
    "last_at" TIMESTAMPTZ(3) NOT NULL,
    "last_text" TEXT NOT NULL,
    "last_direction" TEXT NOT NULL,
    "reply_phone_id" INTEGER,
    "reply_at" TIMESTAMPTZ(3),
    "read_at" TIMESTAMPTZ(3),

    CONSTRAINT "conversations_pkey" PRIMARY KEY ("client_id","number")
);

-- CreateIndex
CREATE INDEX "conversations_client_id_last_at_number_idx" ON "dispatch"."conversations"("client_id", "last_at", "number");

-- CreateIndex
CREATE INDEX "tasks_client_id_recipient_created_at_id_idx" ON "dispatch"."tasks"("client_id", "recipient", "created_at", "id");

-- Every number a client has sent to or heard from so far gets its thread (replies join as inbox relays them from now on).
INSERT INTO "dispatch"."conversations" (client_id, number, last_at, last_text, last_direction)
SELECT DISTINCT ON (client_id, recipient) client_id, recipient, created_at, left(message, 160), 'out'
  FROM "dispatch"."tasks"
 ORDER BY client_id, recipient, created_at DESC, id DESC
ON CONFLICT DO NOTHING;
