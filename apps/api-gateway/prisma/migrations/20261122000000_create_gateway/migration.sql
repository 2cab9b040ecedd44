-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "gateway";

-- CreateTable
CREATE TABLE "gateway"."clients" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "timezone" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "clients_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "gateway"."api_keys" (
    "id" SERIAL NOT NULL,
    "client_id" INTEGER NOT NULL,
    "prefix" VARCHAR(16) NOT NULL,
    "hash" CHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "gateway"."worker_tokens" (
    "id" SERIAL NOT NULL,
    "phone_id" INTEGER,
    "prefix" VARCHAR(16) NOT NULL,
    "hash" CHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "worker_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "gateway"."idempotency_records" (
    "client_id" INTEGER NOT NULL,
    "key" VARCHAR(255) NOT NULL,
    "request_hash" CHAR(64) NOT NULL,
    "status_code" INTEGER,
    "response" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("client_id","key")
);

-- CreateTable
CREATE TABLE "gateway"."abandoned_creates" (
    "task_key" UUID NOT NULL,
    "client_id" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "abandoned_creates_pkey" PRIMARY KEY ("task_key")
);

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_hash_key" ON "gateway"."api_keys"("hash");

-- CreateIndex
CREATE INDEX "api_keys_client_id_idx" ON "gateway"."api_keys"("client_id");

-- CreateIndex
CREATE UNIQUE INDEX "worker_tokens_hash_key" ON "gateway"."worker_tokens"("hash");

-- CreateIndex
CREATE INDEX "worker_tokens_phone_id_idx" ON "gateway"."worker_tokens"("phone_id");

-- CreateIndex
CREATE INDEX "idempotency_records_created_at_idx" ON "gateway"."idempotency_records"("created_at");

-- AddForeignKey
ALTER TABLE "gateway"."api_keys" ADD CONSTRAINT "api_keys_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "gateway"."clients"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
