-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "dispatch";

-- CreateEnum
CREATE TYPE "dispatch"."phone_kind" AS ENUM ('own', 'gateway');

-- CreateEnum
CREATE TYPE "dispatch"."task_status" AS ENUM ('pending', 'claimed', 'sent', 'failed');

-- CreateTable
CREATE TABLE "dispatch"."phones" (
    "id" SERIAL NOT NULL,
    "kind" "dispatch"."phone_kind" NOT NULL,
    "client_id" INTEGER,
    "name" TEXT NOT NULL,
    "url" TEXT,
    "device_id" TEXT,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "last_assigned_at" TIMESTAMPTZ(6),
    "last_seen_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "phones_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dispatch"."tasks" (
    "id" SERIAL NOT NULL,
    "task_key" UUID NOT NULL,
    "client_id" INTEGER NOT NULL,
    "phone_id" INTEGER NOT NULL,
    "recipient" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "status" "dispatch"."task_status" NOT NULL,
    "scheduled_at" TIMESTAMPTZ(3) NOT NULL,
    "scheduled_local" VARCHAR(19) NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "claimed_by_token_id" INTEGER,
    "claim_expires_at" TIMESTAMPTZ(3),
    "sent_at" TIMESTAMPTZ(3),
    "failed_at" TIMESTAMPTZ(3),
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tasks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dispatch"."voided_task_keys" (
    "task_key" UUID NOT NULL,
    "voided_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "voided_task_keys_pkey" PRIMARY KEY ("task_key")
);

-- CreateIndex
CREATE INDEX "phones_kind_client_id_active_idx" ON "dispatch"."phones"("kind", "client_id", "active");

-- CreateIndex
CREATE UNIQUE INDEX "phones_client_id_device_id_key" ON "dispatch"."phones"("client_id", "device_id");

-- CreateIndex
CREATE UNIQUE INDEX "tasks_task_key_key" ON "dispatch"."tasks"("task_key");

-- CreateIndex
CREATE INDEX "tasks_status_scheduled_at_idx" ON "dispatch"."tasks"("status", "scheduled_at");

-- CreateIndex
CREATE INDEX "tasks_client_id_id_idx" ON "dispatch"."tasks"("client_id", "id");

-- CreateIndex
CREATE INDEX "tasks_phone_id_status_scheduled_at_idx" ON "dispatch"."tasks"("phone_id", "status", "scheduled_at");

-- AddForeignKey
ALTER TABLE "dispatch"."tasks" ADD CONSTRAINT "tasks_phone_id_fkey" FOREIGN KEY ("phone_id") REFERENCES "dispatch"."phones"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
