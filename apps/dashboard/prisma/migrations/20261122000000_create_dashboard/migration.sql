-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "dashboard";

-- CreateEnum
CREATE TYPE "dashboard"."user_role" AS ENUM ('client', 'admin');

-- CreateTable
CREATE TABLE "dashboard"."users" (
    "id" SERIAL NOT NULL,
    "email" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "role" "dashboard"."user_role" NOT NULL,
    "client_id" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id"),
    -- Not expressible in schema.prisma: an address is stored in one spelling, and a client user always has its client.
    CONSTRAINT "users_email_lower_check" CHECK ("email" = lower("email")),
    CONSTRAINT "users_client_role_check" CHECK ("role" <> 'client' OR "client_id" IS NOT NULL)
);

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "dashboard"."users"("email");

-- CreateIndex
CREATE INDEX "users_client_id_idx" ON "dashboard"."users"("client_id");
