-- CreateEnum
CREATE TYPE "Role" AS ENUM ('owner', 'admin', 'editor', 'viewer');

-- CreateEnum
CREATE TYPE "TenantStatus" AS ENUM ('active', 'suspended');

-- CreateEnum
CREATE TYPE "LimitBy" AS ENUM ('tenant', 'key', 'subject');

-- CreateEnum
CREATE TYPE "Algorithm" AS ENUM ('token_bucket', 'leaky_bucket', 'gcra', 'fixed_window', 'sliding_log', 'sliding_window');

-- CreateEnum
CREATE TYPE "LimitAction" AS ENUM ('reject', 'delay');

-- CreateEnum
CREATE TYPE "LimitMode" AS ENUM ('enforce', 'shadow');

-- CreateEnum
CREATE TYPE "StoreFailure" AS ENUM ('open', 'closed');

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "isOperator" BOOLEAN NOT NULL DEFAULT false,
    "disabledAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Membership" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "role" "Role" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Membership_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Plan" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Plan_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Tenant" (
    "id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "planId" TEXT NOT NULL,
    "status" "TenantStatus" NOT NULL DEFAULT 'active',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Tenant_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiKey" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" CHAR(64) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    "lastUsedAt" TIMESTAMP(3),

    CONSTRAINT "ApiKey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Route" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT,
    "scope" TEXT NOT NULL,
    "pattern" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Route_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Limit" (
    "id" TEXT NOT NULL,
    "planId" TEXT,
    "tenantId" TEXT,
    "apiKeyId" TEXT,
    "routeId" TEXT,
    "name" TEXT NOT NULL,
    "by" "LimitBy",
    "routePattern" TEXT,
    "algorithm" "Algorithm",
    "limit" INTEGER,
    "windowMs" BIGINT,
    "burst" INTEGER,
    "action" "LimitAction",
    "maxDelayMs" BIGINT,
    "mode" "LimitMode",
    "onStoreFailure" "StoreFailure",
    "disabled" BOOLEAN,
    "position" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Limit_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ServiceToken" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" CHAR(64) NOT NULL,
    "createdBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" TIMESTAMP(3),
    "lastUsedAt" TIMESTAMP(3),

    CONSTRAINT "ServiceToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ServiceTokenTenant" (
    "serviceTokenId" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,

    CONSTRAINT "ServiceTokenTenant_pkey" PRIMARY KEY ("serviceTokenId","tenantId")
);

-- CreateTable
CREATE TABLE "AdminToken" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" CHAR(64) NOT NULL,
    "tenantId" TEXT,
    "role" "Role",
    "createdBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" TIMESTAMP(3),
    "lastUsedAt" TIMESTAMP(3),

    CONSTRAINT "AdminToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditEntry" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actorType" TEXT NOT NULL,
    "actorId" TEXT,
    "actorLabel" TEXT NOT NULL,
    "tenantId" TEXT,
    "action" TEXT NOT NULL,
    "targetType" TEXT NOT NULL,
    "targetId" TEXT,
    "before" JSONB,
    "after" JSONB,
    "requestId" TEXT,
    "configVersion" INTEGER,

    CONSTRAINT "AuditEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConfigVersion" (
    "version" INTEGER NOT NULL,
    "snapshot" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ConfigVersion_pkey" PRIMARY KEY ("version")
);

-- CreateTable
CREATE TABLE "UsageMinute" (
    "minute" TIMESTAMP(3) NOT NULL,
    "tenantId" TEXT NOT NULL,
    "keyId" TEXT NOT NULL DEFAULT '',
    "route" TEXT NOT NULL DEFAULT '',
    "allowed" BIGINT NOT NULL DEFAULT 0,
    "rejected" BIGINT NOT NULL DEFAULT 0,
    "shadowRejected" BIGINT NOT NULL DEFAULT 0,
    "degraded" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "UsageMinute_pkey" PRIMARY KEY ("tenantId","minute","keyId","route")
);

-- CreateTable
CREATE TABLE "UsageHour" (
    "hour" TIMESTAMP(3) NOT NULL,
    "tenantId" TEXT NOT NULL,
    "keyId" TEXT NOT NULL DEFAULT '',
    "route" TEXT NOT NULL DEFAULT '',
    "allowed" BIGINT NOT NULL DEFAULT 0,
    "rejected" BIGINT NOT NULL DEFAULT 0,
    "shadowRejected" BIGINT NOT NULL DEFAULT 0,
    "degraded" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "UsageHour_pkey" PRIMARY KEY ("tenantId","hour","keyId","route")
);

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE INDEX "Membership_tenantId_idx" ON "Membership"("tenantId");

-- CreateIndex
CREATE UNIQUE INDEX "Membership_userId_tenantId_key" ON "Membership"("userId", "tenantId");

-- CreateIndex
CREATE UNIQUE INDEX "Plan_name_key" ON "Plan"("name");

-- CreateIndex
CREATE UNIQUE INDEX "Tenant_slug_key" ON "Tenant"("slug");

-- CreateIndex
CREATE INDEX "Tenant_planId_idx" ON "Tenant"("planId");

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_hash_key" ON "ApiKey"("hash");

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_tenantId_name_key" ON "ApiKey"("tenantId", "name");

-- CreateIndex
CREATE INDEX "Route_tenantId_idx" ON "Route"("tenantId");

-- CreateIndex
CREATE UNIQUE INDEX "Route_scope_pattern_key" ON "Route"("scope", "pattern");

-- CreateIndex
CREATE UNIQUE INDEX "Limit_planId_name_key" ON "Limit"("planId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "Limit_tenantId_name_key" ON "Limit"("tenantId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "Limit_apiKeyId_name_key" ON "Limit"("apiKeyId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "Limit_routeId_name_key" ON "Limit"("routeId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "ServiceToken_hash_key" ON "ServiceToken"("hash");

-- CreateIndex
CREATE INDEX "ServiceTokenTenant_tenantId_idx" ON "ServiceTokenTenant"("tenantId");

-- CreateIndex
CREATE UNIQUE INDEX "AdminToken_hash_key" ON "AdminToken"("hash");

-- CreateIndex
CREATE INDEX "AdminToken_tenantId_idx" ON "AdminToken"("tenantId");

-- CreateIndex
CREATE INDEX "AuditEntry_tenantId_id_idx" ON "AuditEntry"("tenantId", "id" DESC);

-- CreateIndex
CREATE INDEX "AuditEntry_at_idx" ON "AuditEntry"("at");

-- CreateIndex
CREATE INDEX "UsageMinute_minute_idx" ON "UsageMinute"("minute");

-- CreateIndex
CREATE INDEX "UsageHour_hour_idx" ON "UsageHour"("hour");

-- AddForeignKey
ALTER TABLE "Membership" ADD CONSTRAINT "Membership_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Membership" ADD CONSTRAINT "Membership_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Tenant" ADD CONSTRAINT "Tenant_planId_fkey" FOREIGN KEY ("planId") REFERENCES "Plan"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiKey" ADD CONSTRAINT "ApiKey_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Route" ADD CONSTRAINT "Route_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Limit" ADD CONSTRAINT "Limit_planId_fkey" FOREIGN KEY ("planId") REFERENCES "Plan"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Limit" ADD CONSTRAINT "Limit_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Limit" ADD CONSTRAINT "Limit_apiKeyId_fkey" FOREIGN KEY ("apiKeyId") REFERENCES "ApiKey"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Limit" ADD CONSTRAINT "Limit_routeId_fkey" FOREIGN KEY ("routeId") REFERENCES "Route"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ServiceTokenTenant" ADD CONSTRAINT "ServiceTokenTenant_serviceTokenId_fkey" FOREIGN KEY ("serviceTokenId") REFERENCES "ServiceToken"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ServiceTokenTenant" ADD CONSTRAINT "ServiceTokenTenant_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AdminToken" ADD CONSTRAINT "AdminToken_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- ---------------------------------------------------------------------------------------
-- Written by hand from here on: rules Prisma's schema language cannot express. Prisma does
-- not introspect CHECK constraints, triggers or functions, so none of this is drift
-- (tests/integration/migrations.test.ts checks both that and that the rules hold).

-- A limit is attached to exactly one of plan, tenant, key or route.
ALTER TABLE "Limit" ADD CONSTRAINT "Limit_one_attachment_check"
  CHECK (num_nonnulls("planId", "tenantId", "apiKeyId", "routeId") = 1);

-- Value ranges of the config contract (shared/spec/config.md: limit and burst
-- 1..1,000,000,000, window 1 ms..365 d). Rule fields are nullable (an override stores only
-- what it changes) and a CHECK that is NULL passes, which is what an unset field needs.
ALTER TABLE "Limit" ADD CONSTRAINT "Limit_limit_range_check"
  CHECK ("limit" BETWEEN 1 AND 1000000000);
ALTER TABLE "Limit" ADD CONSTRAINT "Limit_burst_range_check"
  CHECK ("burst" BETWEEN 1 AND 1000000000);
ALTER TABLE "Limit" ADD CONSTRAINT "Limit_windowMs_range_check"
  CHECK ("windowMs" BETWEEN 1 AND 31536000000);
ALTER TABLE "Limit" ADD CONSTRAINT "Limit_maxDelayMs_range_check"
  CHECK ("maxDelayMs" >= 0);

-- Names and slugs as the contract spells them.
ALTER TABLE "Plan" ADD CONSTRAINT "Plan_name_format_check"
  CHECK ("name" ~ '^[a-z0-9-]{1,63}$');
ALTER TABLE "Tenant" ADD CONSTRAINT "Tenant_slug_format_check"
  CHECK ("slug" ~ '^[a-z0-9-]{1,63}$');
ALTER TABLE "Limit" ADD CONSTRAINT "Limit_name_format_check"
  CHECK ("name" ~ '^[a-z0-9-]{1,63}$');

-- A global route has scope 'global', a tenant's route its tenant id, so that the unique
-- (scope, pattern) index means "unique within its scope". Both branches test NULL
-- explicitly: "... OR scope = tenantId" alone is NULL, which a CHECK accepts, for a global
-- route with any scope.
ALTER TABLE "Route" ADD CONSTRAINT "Route_scope_check"
  CHECK (("tenantId" IS NULL AND "scope" = 'global')
      OR ("tenantId" IS NOT NULL AND "scope" = "tenantId"));

-- An operator token has neither tenant nor role; a tenant token has both.
ALTER TABLE "AdminToken" ADD CONSTRAINT "AdminToken_tenant_role_check"
  CHECK (("tenantId" IS NULL AND "role" IS NULL)
      OR ("tenantId" IS NOT NULL AND "role" IS NOT NULL));

-- The audit log is append-only: UPDATE, DELETE and TRUNCATE are refused for every role
-- (statement-level, so even one that matches no rows). Dropping the trigger is the one,
-- deliberate, way around it.
CREATE FUNCTION "AuditEntry_refuse_change"() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'AuditEntry is append-only: % is not allowed', TG_OP;
END;
$$;

CREATE TRIGGER "AuditEntry_append_only"
  BEFORE UPDATE OR DELETE OR TRUNCATE ON "AuditEntry"
  FOR EACH STATEMENT EXECUTE FUNCTION "AuditEntry_refuse_change"();
