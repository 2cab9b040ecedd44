-- CreateTable
CREATE TABLE "dashboard"."password_resets" (
    "user_id" INTEGER NOT NULL,
    "token_hash" CHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "password_resets_pkey" PRIMARY KEY ("user_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "password_resets_token_hash_key" ON "dashboard"."password_resets"("token_hash");

-- AddForeignKey
ALTER TABLE "dashboard"."password_resets" ADD CONSTRAINT "password_resets_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "dashboard"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
