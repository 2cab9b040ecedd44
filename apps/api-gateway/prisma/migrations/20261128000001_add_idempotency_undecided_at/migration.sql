-- AlterTable
ALTER TABLE "gateway"."idempotency_records" ADD COLUMN     "undecided_at" TIMESTAMPTZ(3);
