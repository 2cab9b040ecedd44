-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "inbox";

-- CreateTable
CREATE TABLE "inbox"."messages" (
    "id" SERIAL NOT NULL,
    "client_id" INTEGER,
    "phone_id" INTEGER,
    "sender" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL,
    "external_id" TEXT,
    "dedup_key" TEXT NOT NULL,
    "stored_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "messages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "messages_dedup_key_key" ON "inbox"."messages"("dedup_key");

-- CreateIndex
CREATE INDEX "messages_client_id_received_at_id_idx" ON "inbox"."messages"("client_id", "received_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "messages_received_at_id_idx" ON "inbox"."messages"("received_at" DESC, "id" DESC);
