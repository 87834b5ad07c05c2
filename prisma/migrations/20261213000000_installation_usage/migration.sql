-- The installation's own usage series (tenant, key and route "*"): every tenant's own series
-- summed, written by the rollup with each minute (lib/control/data/usage/installation-series.ts)
-- and summed into hours and days like any series, so the usage index of 10,000 tenants draws
-- its chart from one series. The rows stored before this migration are summed here, once.
INSERT INTO "UsageSeries" ("tenantId", "keyId", "route") VALUES ('*', '*', '*') ON CONFLICT DO NOTHING;

INSERT INTO "UsageMinute" ("minute", "seriesId", "allowed", "rejected", "shadowRejected", "degraded")
SELECT m."minute", i."id", nullif(sum(m."allowed"), 0), nullif(sum(m."rejected"), 0),
       nullif(sum(m."shadowRejected"), 0), nullif(sum(m."degraded"), 0)
  FROM "UsageMinute" m
  JOIN "UsageSeries" s ON s."id" = m."seriesId" AND s."keyId" = '*' AND s."route" = '*' AND s."tenantId" <> '*'
  CROSS JOIN (SELECT "id" FROM "UsageSeries" WHERE "tenantId" = '*' AND "keyId" = '*' AND "route" = '*') i
 GROUP BY m."minute", i."id"
ON CONFLICT ("seriesId", "minute") DO NOTHING;

INSERT INTO "UsageHour" ("hour", "seriesId", "allowed", "rejected", "shadowRejected", "degraded")
SELECT m."hour", i."id", nullif(sum(m."allowed"), 0), nullif(sum(m."rejected"), 0),
       nullif(sum(m."shadowRejected"), 0), nullif(sum(m."degraded"), 0)
  FROM "UsageHour" m
  JOIN "UsageSeries" s ON s."id" = m."seriesId" AND s."keyId" = '*' AND s."route" = '*' AND s."tenantId" <> '*'
  CROSS JOIN (SELECT "id" FROM "UsageSeries" WHERE "tenantId" = '*' AND "keyId" = '*' AND "route" = '*') i
 GROUP BY m."hour", i."id"
ON CONFLICT ("seriesId", "hour") DO NOTHING;

INSERT INTO "UsageDay" ("day", "seriesId", "allowed", "rejected", "shadowRejected", "degraded")
SELECT m."day", i."id", nullif(sum(m."allowed"), 0), nullif(sum(m."rejected"), 0),
       nullif(sum(m."shadowRejected"), 0), nullif(sum(m."degraded"), 0)
  FROM "UsageDay" m
  JOIN "UsageSeries" s ON s."id" = m."seriesId" AND s."keyId" = '*' AND s."route" = '*' AND s."tenantId" <> '*'
  CROSS JOIN (SELECT "id" FROM "UsageSeries" WHERE "tenantId" = '*' AND "keyId" = '*' AND "route" = '*') i
 GROUP BY m."day", i."id"
ON CONFLICT ("seriesId", "day") DO NOTHING;
