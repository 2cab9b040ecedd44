-- AlterTable
ALTER TABLE "gateway"."clients" ADD COLUMN     "timezone_version" INTEGER NOT NULL DEFAULT 0;
