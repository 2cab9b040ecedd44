-- AlterTable
ALTER TABLE "dispatch"."phones" ADD COLUMN     "last_contact_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "silent_since" TIMESTAMPTZ(3),
ADD COLUMN     "daily_limit" INTEGER,
ADD COLUMN     "per_minute" INTEGER,
ADD COLUMN     "time_zone" TEXT,
ADD COLUMN     "day_of" DATE,
ADD COLUMN     "day_sends" INTEGER NOT NULL DEFAULT 0;

-- A phone's last contact so far: its creation, last poll or last health report.
UPDATE "dispatch"."phones" SET "last_contact_at" = GREATEST("created_at", COALESCE("last_seen_at", "created_at"), COALESCE("health_reported_at", "created_at"));

-- AlterTable
ALTER TABLE "dispatch"."tasks" ADD COLUMN     "first_phone_id" INTEGER,
ADD COLUMN     "pinned" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "retry_after" TIMESTAMPTZ(3);
