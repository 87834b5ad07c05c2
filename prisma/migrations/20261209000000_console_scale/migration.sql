-- The console at 10,000 tenants (docs/dashboard.md): the overview's "most limited" ranks the
-- tenants by their rejections in the range, and the usage index sums every tenant's own series.
-- Both read the tenants' own series (key and route "*": one in ten of the bench's series) by
-- id, and the ranking only rows with rejections: partial indexes, which schema.prisma cannot
-- spell (as AlertIncident_open_per_rule). On the partitioned usage tables they are made on
-- every partition, now and later.
CREATE INDEX "UsageSeries_tenant_own" ON "UsageSeries"("id", "tenantId") WHERE "keyId" = '*' AND "route" = '*';
CREATE INDEX "UsageMinute_rejected" ON "UsageMinute"("seriesId", "minute") INCLUDE ("rejected") WHERE "rejected" > 0;
CREATE INDEX "UsageHour_rejected" ON "UsageHour"("seriesId", "hour") INCLUDE ("rejected") WHERE "rejected" > 0;
CREATE INDEX "UsageDay_rejected" ON "UsageDay"("seriesId", "day") INCLUDE ("rejected") WHERE "rejected" > 0;
