-- CreateTable
CREATE TABLE "dispatch"."opt_outs" (
    "client_id" INTEGER NOT NULL,
    "number" TEXT NOT NULL,
    "opted_out" BOOLEAN NOT NULL,
    "changed_at" TIMESTAMPTZ(3) NOT NULL,
    "source" TEXT NOT NULL,

    CONSTRAINT "opt_outs_pkey" PRIMARY KEY ("client_id","number")
);

-- CreateTable
CREATE TABLE "dispatch"."opt_out_settings" (
    "client_id" INTEGER NOT NULL,
    "opt_out_words" TEXT[],
    "opt_in_words" TEXT[],
    "cancel_queued" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "opt_out_settings_pkey" PRIMARY KEY ("client_id")
);

-- CreateIndex
CREATE INDEX "opt_outs_client_id_opted_out_changed_at_number_idx" ON "dispatch"."opt_outs"("client_id", "opted_out", "changed_at", "number");
