-- CreateTable
CREATE TABLE "smpp"."abandoned_creates" (
    "task_key" UUID NOT NULL,
    "client_id" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settling_until" TIMESTAMPTZ(3),

    CONSTRAINT "abandoned_creates_pkey" PRIMARY KEY ("task_key")
);
