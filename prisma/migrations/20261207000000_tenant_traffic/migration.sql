-- Each tenant's checks of the last 15 rolled-up minutes, rewritten by the usage rollup once a
-- minute, so the console lists and sorts thousands of tenants by traffic without reading
-- their usage rows (docs/dashboard.md). A tenant without a row had no checks then.
CREATE TABLE "TenantTraffic" (
    "tenantId" TEXT NOT NULL,
    "checks" BIGINT NOT NULL,
    "rejected" BIGINT NOT NULL,
    "shadowRejected" BIGINT NOT NULL,
    "degraded" BIGINT NOT NULL,
    "since" TIMESTAMP(3) NOT NULL,
    "until" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TenantTraffic_pkey" PRIMARY KEY ("tenantId")
);
