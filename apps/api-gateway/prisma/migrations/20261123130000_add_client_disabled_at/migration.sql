-- AlterTable
ALTER TABLE "gateway"."clients" ADD COLUMN     "disabled_at" TIMESTAMPTZ(3);
