-- AlterTable
ALTER TABLE "dispatch"."tasks" ADD COLUMN     "encrypted" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "parts_known" BOOLEAN NOT NULL DEFAULT true;

-- AlterTable
ALTER TABLE "dispatch"."conversations" ADD COLUMN     "last_encrypted" BOOLEAN NOT NULL DEFAULT false;
