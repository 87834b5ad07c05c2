-- CreateTable
CREATE TABLE "AlertEndpoint" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "format" TEXT NOT NULL DEFAULT 'json',
    "secret" TEXT NOT NULL,
    "secretPrefix" TEXT NOT NULL,
    "allowPrivate" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "disabledAt" TIMESTAMP(3),

    CONSTRAINT "AlertEndpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AlertRule" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "limitName" TEXT,
    "keyId" TEXT,
    "route" TEXT,
    "thresholdPct" DOUBLE PRECISION,
    "forSeconds" INTEGER NOT NULL,
    "endpointId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "disabledAt" TIMESTAMP(3),

    CONSTRAINT "AlertRule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AlertIncident" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "ruleId" TEXT NOT NULL,
    "firedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolvedAt" TIMESTAMP(3),
    "value" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "AlertIncident_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AlertDelivery" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "endpointId" TEXT NOT NULL,
    "ruleId" TEXT NOT NULL,
    "incidentId" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lockedUntil" TIMESTAMP(3),
    "responseCode" INTEGER,
    "lastError" TEXT,
    "deliveredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AlertDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "AlertEndpoint_tenantId_name_key" ON "AlertEndpoint"("tenantId", "name");

-- CreateIndex
CREATE INDEX "AlertRule_endpointId_idx" ON "AlertRule"("endpointId");

-- CreateIndex
CREATE UNIQUE INDEX "AlertRule_tenantId_name_key" ON "AlertRule"("tenantId", "name");

-- CreateIndex
CREATE INDEX "AlertIncident_ruleId_idx" ON "AlertIncident"("ruleId");

-- CreateIndex
CREATE INDEX "AlertIncident_tenantId_firedAt_idx" ON "AlertIncident"("tenantId", "firedAt" DESC);

-- CreateIndex
CREATE INDEX "AlertDelivery_status_nextAttemptAt_idx" ON "AlertDelivery"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "AlertDelivery_tenantId_createdAt_idx" ON "AlertDelivery"("tenantId", "createdAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "AlertDelivery_incidentId_event_key" ON "AlertDelivery"("incidentId", "event");

-- AddForeignKey
ALTER TABLE "AlertEndpoint" ADD CONSTRAINT "AlertEndpoint_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AlertRule" ADD CONSTRAINT "AlertRule_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AlertRule" ADD CONSTRAINT "AlertRule_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "AlertEndpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AlertIncident" ADD CONSTRAINT "AlertIncident_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AlertDelivery" ADD CONSTRAINT "AlertDelivery_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- At most one open incident per rule: two evaluators that both see a rule fire cannot both
-- open one (the loser's insert fails and it sends nothing).
CREATE UNIQUE INDEX "AlertIncident_open_per_rule" ON "AlertIncident"("ruleId") WHERE "resolvedAt" IS NULL;
