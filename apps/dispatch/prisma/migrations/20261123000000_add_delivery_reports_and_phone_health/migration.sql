-- AlterTable
ALTER TABLE "dispatch"."phones" ADD COLUMN     "battery_percent" SMALLINT,
ADD COLUMN     "charging" BOOLEAN,
ADD COLUMN     "connection" TEXT,
ADD COLUMN     "health_reported_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "dispatch"."tasks" ADD COLUMN     "delivered_at" TIMESTAMPTZ(3);
