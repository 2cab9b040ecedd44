-- AlterTable
ALTER TABLE "inbox"."messages" ADD COLUMN     "encrypted" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "keyword" TEXT;
