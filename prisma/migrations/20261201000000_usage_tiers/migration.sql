-- Usage rollups in tiers, partitioned by time (docs/deployment.md, "Usage data in
-- PostgreSQL"). Rows name a series (tenant, key or "*", route or "*") by id; minutes keep
-- the tenant, per-key and per-route series, UsageMinutePair the key x route pairs of the
-- hours not yet rolled up, hours and days every series. Counts of 0 are NULL. Existing rows
-- are carried over: the old tables are renamed, the new ones created and filled, the old
-- ones dropped.

-- Partition helpers: the rollup job calls them too (lib/data/usage/partitions.ts).
CREATE OR REPLACE FUNCTION usage_ensure_partition(parent text, grain text, at timestamp)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  lower timestamp := date_trunc(grain, at);
  upper timestamp := date_trunc(grain, at) + ('1 ' || grain)::interval;
  name text := parent || '_p' || to_char(date_trunc(grain, at),
    CASE grain WHEN 'hour' THEN 'YYYYMMDD"h"HH24' WHEN 'month' THEN 'YYYYMM' ELSE 'YYYYMMDD' END);
BEGIN
  IF to_regclass(format('%I', name)) IS NULL THEN
    EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
      name, parent, lower, upper);
  END IF;
  RETURN name;
END $$;

CREATE OR REPLACE FUNCTION usage_drop_partitions(parent text, before timestamp)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  part record;
  dropped integer := 0;
BEGIN
  FOR part IN
    SELECT c.relname AS name,
           substring(pg_get_expr(c.relpartbound, c.oid) FROM 'TO \(''([^'']+)''\)')::timestamp AS upper
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = format('%I', parent)::regclass
  LOOP
    IF part.upper <= before THEN
      EXECUTE format('DROP TABLE %I', part.name);
      dropped := dropped + 1;
    END IF;
  END LOOP;
  RETURN dropped;
END $$;

-- The old tables step aside (their index names are taken by the new tables).
ALTER TABLE "UsageMinute" RENAME TO "UsageMinuteOld";
ALTER TABLE "UsageHour" RENAME TO "UsageHourOld";
ALTER TABLE "UsageMinuteOld" DROP CONSTRAINT "UsageMinute_pkey";
ALTER TABLE "UsageHourOld" DROP CONSTRAINT "UsageHour_pkey";
DROP INDEX "UsageMinute_minute_idx";
DROP INDEX "UsageHour_hour_idx";

-- CreateTable
CREATE TABLE "UsageSeries" (
    "id" SERIAL NOT NULL,
    "tenantId" TEXT NOT NULL,
    "keyId" TEXT NOT NULL,
    "route" TEXT NOT NULL,

    CONSTRAINT "UsageSeries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UsageMinute" (
    "minute" TIMESTAMP(3) NOT NULL,
    "seriesId" INTEGER NOT NULL,
    "allowed" INTEGER,
    "rejected" INTEGER,
    "shadowRejected" INTEGER,
    "degraded" INTEGER,

    CONSTRAINT "UsageMinute_pkey" PRIMARY KEY ("seriesId","minute")
) PARTITION BY RANGE ("minute");

-- CreateTable
CREATE TABLE "UsageMinutePair" (
    "minute" TIMESTAMP(3) NOT NULL,
    "seriesId" INTEGER NOT NULL,
    "allowed" INTEGER,
    "rejected" INTEGER,
    "shadowRejected" INTEGER,
    "degraded" INTEGER,

    CONSTRAINT "UsageMinutePair_pkey" PRIMARY KEY ("seriesId","minute")
) PARTITION BY RANGE ("minute");

-- CreateTable
CREATE TABLE "UsageHour" (
    "hour" TIMESTAMP(3) NOT NULL,
    "seriesId" INTEGER NOT NULL,
    "allowed" BIGINT,
    "rejected" BIGINT,
    "shadowRejected" BIGINT,
    "degraded" BIGINT,

    CONSTRAINT "UsageHour_pkey" PRIMARY KEY ("seriesId","hour")
) PARTITION BY RANGE ("hour");

-- CreateTable
CREATE TABLE "UsageDay" (
    "day" TIMESTAMP(3) NOT NULL,
    "seriesId" INTEGER NOT NULL,
    "allowed" BIGINT,
    "rejected" BIGINT,
    "shadowRejected" BIGINT,
    "degraded" BIGINT,

    CONSTRAINT "UsageDay_pkey" PRIMARY KEY ("seriesId","day")
) PARTITION BY RANGE ("day");

-- CreateIndex
CREATE UNIQUE INDEX "UsageSeries_tenantId_keyId_route_key" ON "UsageSeries"("tenantId", "keyId", "route");

-- CreateIndex
CREATE INDEX "UsageMinute_minute_idx" ON "UsageMinute" USING BRIN ("minute");

-- CreateIndex
CREATE INDEX "UsageMinutePair_minute_idx" ON "UsageMinutePair" USING BRIN ("minute");

-- CreateIndex
CREATE INDEX "UsageHour_hour_idx" ON "UsageHour" USING BRIN ("hour");

-- CreateIndex
CREATE INDEX "UsageDay_day_idx" ON "UsageDay" USING BRIN ("day");

-- Every series the old rows name, of all four kinds.
INSERT INTO "UsageSeries" ("tenantId", "keyId", "route")
SELECT DISTINCT "tenantId", k, r
  FROM (SELECT "tenantId", "keyId", "route" FROM "UsageMinuteOld"
        UNION SELECT "tenantId", "keyId", "route" FROM "UsageHourOld") AS pairs,
       LATERAL (VALUES ("keyId", "route"), ("keyId", '*'), ('*', "route"), ('*', '*')) AS kinds(k, r);

-- The partitions the carried rows fall in.
SELECT usage_ensure_partition('UsageMinute', 'day', d)
  FROM (SELECT DISTINCT date_trunc('day', "minute") AS d FROM "UsageMinuteOld") AS days;
SELECT usage_ensure_partition('UsageHour', 'week', w)
  FROM (SELECT DISTINCT date_trunc('week', "hour") AS w FROM "UsageHourOld") AS weeks;
SELECT usage_ensure_partition('UsageDay', 'month', m)
  FROM (SELECT DISTINCT date_trunc('month', "hour") AS m FROM "UsageHourOld") AS months;

-- Minutes: the tenant, per-key and per-route sums of each minute's pairs.
INSERT INTO "UsageMinute" ("minute", "seriesId", "allowed", "rejected", "shadowRejected", "degraded")
SELECT g."minute", s."id", nullif(g.a, 0), nullif(g.r, 0), nullif(g.sr, 0), nullif(g.d, 0)
  FROM (SELECT "minute", "tenantId",
               CASE WHEN GROUPING("keyId") = 1 THEN '*' ELSE "keyId" END AS k,
               CASE WHEN GROUPING("route") = 1 THEN '*' ELSE "route" END AS rt,
               sum("allowed") AS a, sum("rejected") AS r, sum("shadowRejected") AS sr, sum("degraded") AS d
          FROM "UsageMinuteOld"
         GROUP BY GROUPING SETS (("minute", "tenantId", "keyId"), ("minute", "tenantId", "route"), ("minute", "tenantId"))) AS g
  JOIN "UsageSeries" s ON s."tenantId" = g."tenantId" AND s."keyId" = g.k AND s."route" = g.rt;

-- Pairs of the minutes whose hour is not rolled up yet (after the newest old hour).
SELECT usage_ensure_partition('UsageMinutePair', 'hour', h)
  FROM (SELECT DISTINCT date_trunc('hour', "minute") AS h FROM "UsageMinuteOld"
         WHERE "minute" >= (SELECT coalesce(max("hour") + interval '1 hour', '-infinity') FROM "UsageHourOld")) AS hours;
INSERT INTO "UsageMinutePair" ("minute", "seriesId", "allowed", "rejected", "shadowRejected", "degraded")
SELECT o."minute", s."id", nullif(o."allowed", 0)::int, nullif(o."rejected", 0)::int,
       nullif(o."shadowRejected", 0)::int, nullif(o."degraded", 0)::int
  FROM "UsageMinuteOld" o
  JOIN "UsageSeries" s ON s."tenantId" = o."tenantId" AND s."keyId" = o."keyId" AND s."route" = o."route"
 WHERE o."minute" >= (SELECT coalesce(max("hour") + interval '1 hour', '-infinity') FROM "UsageHourOld");

-- Hours: every series of each hour's pairs.
INSERT INTO "UsageHour" ("hour", "seriesId", "allowed", "rejected", "shadowRejected", "degraded")
SELECT g."hour", s."id", nullif(g.a, 0), nullif(g.r, 0), nullif(g.sr, 0), nullif(g.d, 0)
  FROM (SELECT "hour", "tenantId",
               CASE WHEN GROUPING("keyId") = 1 THEN '*' ELSE "keyId" END AS k,
               CASE WHEN GROUPING("route") = 1 THEN '*' ELSE "route" END AS rt,
               sum("allowed") AS a, sum("rejected") AS r, sum("shadowRejected") AS sr, sum("degraded") AS d
          FROM "UsageHourOld"
         GROUP BY GROUPING SETS (("hour", "tenantId", "keyId", "route"), ("hour", "tenantId", "keyId"),
                                 ("hour", "tenantId", "route"), ("hour", "tenantId"))) AS g
  JOIN "UsageSeries" s ON s."tenantId" = g."tenantId" AND s."keyId" = g.k AND s."route" = g.rt;

-- Days: the sums of their hours (the rollup rewrites the newest, still partial, day).
INSERT INTO "UsageDay" ("day", "seriesId", "allowed", "rejected", "shadowRejected", "degraded")
SELECT date_trunc('day', "hour"), "seriesId", sum("allowed"), sum("rejected"), sum("shadowRejected"), sum("degraded")
  FROM "UsageHour" GROUP BY 1, 2;

DROP TABLE "UsageMinuteOld";
DROP TABLE "UsageHourOld";
