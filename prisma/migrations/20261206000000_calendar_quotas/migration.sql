-- Calendar quotas (docs/algorithms.md, calendar): the algorithm, a limit's period and own
-- time zone, and the tenant's time zone (NULL: UTC).
ALTER TYPE "Algorithm" ADD VALUE 'calendar';
ALTER TABLE "Limit" ADD COLUMN "period" TEXT, ADD COLUMN "timeZone" TEXT;
ALTER TABLE "Tenant" ADD COLUMN "timeZone" TEXT;
