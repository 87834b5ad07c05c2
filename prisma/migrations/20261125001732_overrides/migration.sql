-- CreateTable
CREATE TABLE "Override" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "apiKeyId" TEXT,
    "subject" TEXT,
    "limitName" TEXT NOT NULL,
    "limit" INTEGER,
    "startsAt" TIMESTAMP(3) NOT NULL,
    "endsAt" TIMESTAMP(3) NOT NULL,
    "reason" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "endedAt" TIMESTAMP(3),
    "endedBy" TEXT,

    CONSTRAINT "Override_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Override_tenantId_endsAt_idx" ON "Override"("tenantId", "endsAt");

-- CreateIndex
CREATE INDEX "Override_endsAt_idx" ON "Override"("endsAt");

-- CreateIndex
CREATE INDEX "Override_apiKeyId_idx" ON "Override"("apiKeyId");

-- AddForeignKey
ALTER TABLE "Override" ADD CONSTRAINT "Override_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Override" ADD CONSTRAINT "Override_apiKeyId_fkey" FOREIGN KEY ("apiKeyId") REFERENCES "ApiKey"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- What the data layer checks, held here too: an override ends after it starts, its limit is 0 or more
ALTER TABLE "Override" ADD CONSTRAINT "Override_window_check" CHECK ("endsAt" > "startsAt");
ALTER TABLE "Override" ADD CONSTRAINT "Override_limit_check" CHECK ("limit" IS NULL OR "limit" >= 0);
