-- AlterTable
ALTER TABLE "dashboard"."users" ADD COLUMN     "password_version" INTEGER NOT NULL DEFAULT 0;

-- A user who changed the password has sessions from before the change; they count as version 0 and end.
UPDATE "dashboard"."users" SET "password_version" = 1 WHERE "sessions_valid_from" IS NOT NULL;

-- AlterTable
ALTER TABLE "dashboard"."users" DROP COLUMN "sessions_valid_from";
