-- AlterTable: per-phone care of its SIM (recipient cap, jitter, SIMs) and its pause on the carrier's word
ALTER TABLE "dispatch"."phones" ADD COLUMN     "monthly_recipients" INTEGER,
ADD COLUMN     "jitter" INTEGER,
ADD COLUMN     "sims" SMALLINT NOT NULL DEFAULT 1,
ADD COLUMN     "paused_until" TIMESTAMPTZ(3),
ADD COLUMN     "pause_reason" TEXT,
ADD COLUMN     "pause_step" SMALLINT NOT NULL DEFAULT 0,
ADD COLUMN     "paused_at" TIMESTAMPTZ(3);

-- AlterTable: a task's priority, the SMS parts it costs and the SIM sticky chose
ALTER TABLE "dispatch"."tasks" ADD COLUMN     "high_priority" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "parts" SMALLINT NOT NULL DEFAULT 1,
ADD COLUMN     "sim" SMALLINT;

-- CreateTable
CREATE TABLE "dispatch"."sending_rules" (
    "client_id" INTEGER NOT NULL,
    "routing_mode" TEXT NOT NULL DEFAULT 'first',
    "sticky_days" INTEGER NOT NULL DEFAULT 30,
    "send_windows" JSONB NOT NULL DEFAULT '[]',
    "window_minutes" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "time_zone" TEXT NOT NULL,

    CONSTRAINT "sending_rules_pkey" PRIMARY KEY ("client_id")
);

-- CreateTable
CREATE TABLE "dispatch"."sticky_recipients" (
    "client_id" INTEGER NOT NULL,
    "number" TEXT NOT NULL,
    "phone_id" INTEGER NOT NULL,
    "sim" SMALLINT,
    "last_used_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sticky_recipients_pkey" PRIMARY KEY ("client_id","number")
);

-- CreateTable
CREATE TABLE "dispatch"."phone_recipients" (
    "phone_id" INTEGER NOT NULL,
    "month" DATE NOT NULL,
    "number" TEXT NOT NULL,

    CONSTRAINT "phone_recipients_pkey" PRIMARY KEY ("phone_id","month","number")
);

-- CreateIndex
CREATE INDEX "sticky_recipients_phone_id_idx" ON "dispatch"."sticky_recipients"("phone_id");

-- CreateIndex
CREATE INDEX "sticky_recipients_last_used_at_idx" ON "dispatch"."sticky_recipients"("last_used_at");

-- CreateIndex
CREATE INDEX "phone_recipients_month_idx" ON "dispatch"."phone_recipients"("month");

-- CreateIndex: a bound token's high-priority tasks, first in its claims
CREATE INDEX "tasks_phone_id_scheduled_at_id_idx" ON "dispatch"."tasks"("phone_id", "scheduled_at", "id") WHERE "status" = 'pending' AND "high_priority";

-- CreateIndex: an unbound token's high-priority tasks
CREATE INDEX "tasks_scheduled_at_id_idx" ON "dispatch"."tasks"("scheduled_at", "id") WHERE "status" = 'pending' AND "high_priority";

-- AlterTable: why a task last moved to another phone, for its owner
ALTER TABLE "dispatch"."tasks" ADD COLUMN     "rerouted_because" TEXT;
