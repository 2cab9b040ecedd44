-- CreateTable
CREATE TABLE "dispatch"."client_zones" (
    "client_id" INTEGER NOT NULL,
    "time_zone" TEXT NOT NULL,
    "version" INTEGER NOT NULL,

    CONSTRAINT "client_zones_pkey" PRIMARY KEY ("client_id")
);
