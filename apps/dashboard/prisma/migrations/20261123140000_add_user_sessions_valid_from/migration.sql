-- AlterTable
ALTER TABLE "dashboard"."users" ADD COLUMN     "sessions_valid_from" TIMESTAMPTZ(3);
