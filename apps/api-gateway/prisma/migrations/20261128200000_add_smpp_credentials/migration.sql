-- CreateTable
CREATE TABLE "gateway"."smpp_credentials" (
    "id" SERIAL NOT NULL,
    "client_id" INTEGER NOT NULL,
    "system_id" VARCHAR(15) NOT NULL,
    "password_hash" TEXT NOT NULL,
    "source_addresses" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_bound_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "smpp_credentials_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "smpp_credentials_system_id_key" ON "gateway"."smpp_credentials"("system_id");

-- CreateIndex
CREATE INDEX "smpp_credentials_client_id_idx" ON "gateway"."smpp_credentials"("client_id");

-- AddForeignKey
ALTER TABLE "gateway"."smpp_credentials" ADD CONSTRAINT "smpp_credentials_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "gateway"."clients"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
