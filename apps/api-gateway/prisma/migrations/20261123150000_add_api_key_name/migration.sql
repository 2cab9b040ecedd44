-- AlterTable
ALTER TABLE "gateway"."api_keys" ADD COLUMN     "name" VARCHAR(100);
