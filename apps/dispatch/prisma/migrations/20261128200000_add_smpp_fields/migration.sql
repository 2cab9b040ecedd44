-- A phone's own number, which an SMPP submit may name as its sender; tasks whose end an SMPP client asked to hear of.
ALTER TABLE "dispatch"."phones" ADD COLUMN "number" TEXT;
ALTER TABLE "dispatch"."tasks" ADD COLUMN "receipts" BOOLEAN NOT NULL DEFAULT false;
