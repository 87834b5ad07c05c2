-- Rejections by the limit that denied them, for the limit tree's long ranges
-- (lib/control/data/usage/denial-writer.ts): a dictionary of (tenant, key, route, limit)
-- and rows of its id, time and count. The row tables are partitioned by time like the
-- usage tables: the rollup creates the partitions ahead (usage_ensure_partition) and
-- retention drops them whole (usage_drop_partitions); denial minutes by hour, hours by week.

-- CreateTable
CREATE TABLE "UsageDenialSeries" (
    "id" SERIAL NOT NULL,
    "tenantId" TEXT NOT NULL,
    "keyId" TEXT NOT NULL,
    "route" TEXT NOT NULL,
    "limit" TEXT NOT NULL,
    "level" TEXT NOT NULL,
    "by" TEXT NOT NULL,

    CONSTRAINT "UsageDenialSeries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UsageDenialMinute" (
    "minute" TIMESTAMP(3) NOT NULL,
    "seriesId" INTEGER NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "UsageDenialMinute_pkey" PRIMARY KEY ("seriesId","minute")
) PARTITION BY RANGE ("minute");

-- CreateTable
CREATE TABLE "UsageDenialHour" (
    "hour" TIMESTAMP(3) NOT NULL,
    "seriesId" INTEGER NOT NULL,
    "count" BIGINT NOT NULL,

    CONSTRAINT "UsageDenialHour_pkey" PRIMARY KEY ("seriesId","hour")
) PARTITION BY RANGE ("hour");

-- CreateIndex
CREATE UNIQUE INDEX "UsageDenialSeries_tenantId_keyId_route_limit_level_by_key" ON "UsageDenialSeries"("tenantId", "keyId", "route", "limit", "level", "by");

-- CreateIndex
CREATE INDEX "UsageDenialHour_hour_idx" ON "UsageDenialHour" USING BRIN ("hour");
