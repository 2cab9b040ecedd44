-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "billing";

-- CreateEnum
CREATE TYPE "billing"."ledger_kind" AS ENUM ('opening', 'grant', 'refill', 'debit', 'refund');

-- CreateEnum
CREATE TYPE "billing"."credit_bucket" AS ENUM ('daily', 'bonus');

-- CreateEnum
CREATE TYPE "billing"."charge_state" AS ENUM ('held', 'kept', 'refunded');

-- CreateTable
CREATE TABLE "billing"."accounts" (
    "client_id" INTEGER NOT NULL,
    "plan" TEXT NOT NULL,
    "daily_allowance" INTEGER NOT NULL,
    "phone_limit" INTEGER NOT NULL,
    "daily_remaining" INTEGER NOT NULL,
    "bonus_remaining" INTEGER NOT NULL,
    "period_started_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("client_id"),
    -- Not expressible in schema.prisma: the last guard of "a balance is never negative".
    CONSTRAINT "accounts_daily_remaining_check" CHECK ("daily_remaining" >= 0),
    CONSTRAINT "accounts_bonus_remaining_check" CHECK ("bonus_remaining" >= 0)
);

-- CreateTable
CREATE TABLE "billing"."ledger_entries" (
    "id" BIGSERIAL NOT NULL,
    "client_id" INTEGER NOT NULL,
    "kind" "billing"."ledger_kind" NOT NULL,
    "bucket" "billing"."credit_bucket" NOT NULL,
    "amount" INTEGER NOT NULL,
    "task_key" UUID,
    "reason" TEXT,
    "balance_after" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "billing"."task_charges" (
    "task_key" UUID NOT NULL,
    "client_id" INTEGER NOT NULL,
    "bucket" "billing"."credit_bucket" NOT NULL,
    "state" "billing"."charge_state" NOT NULL DEFAULT 'held',
    "debited_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settled_at" TIMESTAMPTZ(3),

    CONSTRAINT "task_charges_pkey" PRIMARY KEY ("task_key")
);

-- CreateIndex
CREATE INDEX "ledger_entries_client_id_id_idx" ON "billing"."ledger_entries"("client_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "ledger_entries_task_key_kind_key" ON "billing"."ledger_entries"("task_key", "kind");

-- CreateIndex
CREATE INDEX "task_charges_state_debited_at_idx" ON "billing"."task_charges"("state", "debited_at");

-- CreateIndex
CREATE INDEX "task_charges_client_id_idx" ON "billing"."task_charges"("client_id");

-- AddForeignKey
ALTER TABLE "billing"."ledger_entries" ADD CONSTRAINT "ledger_entries_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "billing"."accounts"("client_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "billing"."task_charges" ADD CONSTRAINT "task_charges_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "billing"."accounts"("client_id") ON DELETE RESTRICT ON UPDATE CASCADE;
