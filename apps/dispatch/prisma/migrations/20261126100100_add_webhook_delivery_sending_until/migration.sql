-- AlterTable
ALTER TABLE "dispatch"."webhook_deliveries" ADD COLUMN "sending_until" TIMESTAMPTZ(3);

-- CreateIndex: partial, only deliveries being sent (or left by a deliverer that died) have one
CREATE INDEX "webhook_deliveries_endpoint_id_sending_until_idx" ON "dispatch"."webhook_deliveries"("endpoint_id", "sending_until") WHERE "sending_until" IS NOT NULL;

-- CreateIndex: partial, a deliverer takes each endpoint's first due deliveries from it
CREATE INDEX "webhook_deliveries_endpoint_id_next_attempt_at_id_idx" ON "dispatch"."webhook_deliveries"("endpoint_id", "next_attempt_at", "id") WHERE "status" = 'pending';
