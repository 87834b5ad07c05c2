-- Lease counts of concurrency limits beside the decision counts (docs/usage.md, Leases):
-- taken by admitted checks, released (answered released: true) and expired (not released
-- before the limit's window ran out). NULL is 0, as for the other counts. The tables are
-- partitioned: a column added to the parent is added to every partition.
ALTER TABLE "UsageMinute" ADD COLUMN "leasesAcquired" INTEGER, ADD COLUMN "leasesReleased" INTEGER, ADD COLUMN "leasesExpired" INTEGER;
ALTER TABLE "UsageMinutePair" ADD COLUMN "leasesAcquired" INTEGER, ADD COLUMN "leasesReleased" INTEGER, ADD COLUMN "leasesExpired" INTEGER;
ALTER TABLE "UsageHour" ADD COLUMN "leasesAcquired" BIGINT, ADD COLUMN "leasesReleased" BIGINT, ADD COLUMN "leasesExpired" BIGINT;
ALTER TABLE "UsageDay" ADD COLUMN "leasesAcquired" BIGINT, ADD COLUMN "leasesReleased" BIGINT, ADD COLUMN "leasesExpired" BIGINT;
