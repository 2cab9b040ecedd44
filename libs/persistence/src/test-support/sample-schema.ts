/**
 * A Prisma schema placing models in two schemas, and the migration Prisma's own schema engine
 * generates for it (`migrate diff --from-empty`), plus one hand-written sequence.
 */
export const SAMPLE_PRISMA_SCHEMA = `generator client {
  provider = "prisma-client"
  output   = "../generated/sample"
}

datasource db {
  provider = "postgresql"
  schemas  = ["sample", "audit"]
}

enum MessageStatus {
  pending
  sent
  failed  @map("FAILED")

  @@schema("sample")
}

model Account {
  id        Int       @id @default(autoincrement())
  email     String    @unique @db.VarChar(255)
  name      String?
  credits   Int       @default(0)
  createdAt DateTime  @default(now()) @map("created_at") @db.Timestamptz(3)
  messages  Message[]

  @@index([name, createdAt(sort: Desc)])
  @@map("accounts")
  @@schema("sample")
}

model Message {
  id         BigInt        @id @default(autoincrement())
  accountId  Int           @map("account_id")
  account    Account       @relation(fields: [accountId], references: [id], onDelete: Cascade)
  body       String
  status     MessageStatus @default(pending)
  externalId String?       @map("external_id")
  sentAt     DateTime?     @map("sent_at")
  publicId   String        @default(uuid()) @map("public_id") @db.Uuid
  meta       Json?

  @@unique([accountId, externalId])
  @@index([status, sentAt], map: "messages_by_status")
  @@map("messages")
  @@schema("sample")
}

// Every scalar and native type, so that the type mapping is checked against what Prisma creates.
model TypeSample {
  id          Int             @id
  small       Int             @db.SmallInt
  big         BigInt
  ratio       Float
  realRatio   Float           @db.Real
  amount      Decimal
  price       Decimal         @db.Decimal(10, 2)
  flag        Boolean
  blob        Bytes
  doc         Json
  plainDoc    Json            @db.Json
  code        String          @db.Char(2)
  letter      String          @db.Char
  label       String          @db.Text
  token       String          @db.Uuid
  day         DateTime        @db.Date
  clock       DateTime        @db.Time(0)
  zonedClock  DateTime        @db.Timetz
  moment      DateTime        @db.Timestamp(6)
  zonedMoment DateTime        @db.Timestamptz
  address     String          @db.Inet
  bits        String          @db.Bit(3)
  varBits     String          @db.VarBit
  markup      String          @db.Xml
  cash        Decimal         @db.Money
  objectId    Int             @db.Oid
  counts      Int[]
  statuses    MessageStatus[]
  names       String[]        @db.VarChar(20)
  seq         Int             @default(dbgenerated("nextval('sample.type_samples_seq'::regclass)"))

  @@map("type_samples")
  @@schema("sample")
}

model AuditEntry {
  id   Int    @id @default(autoincrement())
  note String

  @@map("audit_entries")
  @@schema("audit")
}
`;

export const SAMPLE_MIGRATION_SQL = `-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "audit";

-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "sample";

-- Written by hand: Prisma leaves sequences named in dbgenerated() to the migration author.
CREATE SEQUENCE "sample"."type_samples_seq";

-- CreateEnum
CREATE TYPE "sample"."MessageStatus" AS ENUM ('pending', 'sent', 'FAILED');

-- CreateTable
CREATE TABLE "sample"."accounts" (
    "id" SERIAL NOT NULL,
    "email" VARCHAR(255) NOT NULL,
    "name" TEXT,
    "credits" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sample"."messages" (
    "id" BIGSERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "body" TEXT NOT NULL,
    "status" "sample"."MessageStatus" NOT NULL DEFAULT 'pending',
    "external_id" TEXT,
    "sent_at" TIMESTAMP(3),
    "public_id" UUID NOT NULL,
    "meta" JSONB,

    CONSTRAINT "messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sample"."type_samples" (
    "id" INTEGER NOT NULL,
    "small" SMALLINT NOT NULL,
    "big" BIGINT NOT NULL,
    "ratio" DOUBLE PRECISION NOT NULL,
    "realRatio" REAL NOT NULL,
    "amount" DECIMAL(65,30) NOT NULL,
    "price" DECIMAL(10,2) NOT NULL,
    "flag" BOOLEAN NOT NULL,
    "blob" BYTEA NOT NULL,
    "doc" JSONB NOT NULL,
    "plainDoc" JSON NOT NULL,
    "code" CHAR(2) NOT NULL,
    "letter" CHAR NOT NULL,
    "label" TEXT NOT NULL,
    "token" UUID NOT NULL,
    "day" DATE NOT NULL,
    "clock" TIME(0) NOT NULL,
    "zonedClock" TIMETZ NOT NULL,
    "moment" TIMESTAMP(6) NOT NULL,
    "zonedMoment" TIMESTAMPTZ NOT NULL,
    "address" INET NOT NULL,
    "bits" BIT(3) NOT NULL,
    "varBits" VARBIT NOT NULL,
    "markup" XML NOT NULL,
    "cash" MONEY NOT NULL,
    "objectId" OID NOT NULL,
    "counts" INTEGER[],
    "statuses" "sample"."MessageStatus"[],
    "names" VARCHAR(20)[],
    "seq" INTEGER NOT NULL DEFAULT nextval('sample.type_samples_seq'::regclass),

    CONSTRAINT "type_samples_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit"."audit_entries" (
    "id" SERIAL NOT NULL,
    "note" TEXT NOT NULL,

    CONSTRAINT "audit_entries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "accounts_email_key" ON "sample"."accounts"("email");

-- CreateIndex
CREATE INDEX "accounts_name_created_at_idx" ON "sample"."accounts"("name", "created_at" DESC);

-- CreateIndex
CREATE INDEX "messages_by_status" ON "sample"."messages"("status", "sent_at");

-- CreateIndex
CREATE UNIQUE INDEX "messages_account_id_external_id_key" ON "sample"."messages"("account_id", "external_id");

-- AddForeignKey
ALTER TABLE "sample"."messages" ADD CONSTRAINT "messages_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "sample"."accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
`;
