-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "smpp";

-- CreateTable
CREATE TABLE "smpp"."submissions" (
    "task_id" INTEGER NOT NULL,
    "client_id" INTEGER NOT NULL,
    "credential_id" INTEGER NOT NULL,
    "source_addr" TEXT NOT NULL,
    "destination_addr" TEXT NOT NULL,
    "registered_delivery" SMALLINT NOT NULL,
    "text_head" TEXT NOT NULL,
    "final_event" TEXT,
    "submitted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "submissions_pkey" PRIMARY KEY ("task_id")
);

-- CreateTable
CREATE TABLE "smpp"."receipts" (
    "task_id" INTEGER NOT NULL,
    "event" TEXT NOT NULL,
    "client_id" INTEGER NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempts" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "receipts_pkey" PRIMARY KEY ("task_id","event")
);

-- CreateTable
CREATE TABLE "smpp"."reply_cursors" (
    "client_id" INTEGER NOT NULL,
    "after_id" INTEGER NOT NULL,
    "since" TIMESTAMPTZ(3) NOT NULL,
    "leased_until" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "reply_cursors_pkey" PRIMARY KEY ("client_id")
);

-- CreateIndex
CREATE INDEX "submissions_submitted_at_idx" ON "smpp"."submissions"("submitted_at");

-- CreateIndex
CREATE INDEX "receipts_client_id_next_attempt_at_idx" ON "smpp"."receipts"("client_id", "next_attempt_at");

-- CreateIndex
CREATE INDEX "receipts_created_at_idx" ON "smpp"."receipts"("created_at");
