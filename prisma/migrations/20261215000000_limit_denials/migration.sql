-- Rejections by the limit that denied them, for the limit tree's long ranges
-- (lib/control/data/usage/denial-writer.ts). Partitioned by time like the usage tables: the
-- rollup creates the partitions ahead (usage_ensure_partition) and retention drops them
-- whole (usage_drop_partitions); denial minutes by hour, denial hours by week.

-- CreateTable
CREATE TABLE "UsageDenialMinute" (
    "minute" TIMESTAMP(3) NOT NULL,
    "tenantId" TEXT NOT NULL,
    "keyId" TEXT NOT NULL,
    "route" TEXT NOT NULL,
    "limit" TEXT NOT NULL,
    "level" TEXT NOT NULL,
    "by" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "UsageDenialMinute_pkey" PRIMARY KEY ("tenantId","minute","keyId","route","limit","level","by")
) PARTITION BY RANGE ("minute");

-- CreateTable
CREATE TABLE "UsageDenialHour" (
    "hour" TIMESTAMP(3) NOT NULL,
    "tenantId" TEXT NOT NULL,
    "keyId" TEXT NOT NULL,
    "route" TEXT NOT NULL,
    "limit" TEXT NOT NULL,
    "level" TEXT NOT NULL,
    "by" TEXT NOT NULL,
    "count" BIGINT NOT NULL,

    CONSTRAINT "UsageDenialHour_pkey" PRIMARY KEY ("tenantId","hour","keyId","route","limit","level","by")
) PARTITION BY RANGE ("hour");

-- CreateIndex
CREATE INDEX "UsageDenialHour_hour_idx" ON "UsageDenialHour" USING BRIN ("hour");
