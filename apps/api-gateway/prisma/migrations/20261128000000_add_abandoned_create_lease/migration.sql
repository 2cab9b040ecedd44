-- AlterTable
ALTER TABLE "gateway"."abandoned_creates" ADD COLUMN     "settling_until" TIMESTAMPTZ(3);
