import "server-only";
import { utcAt } from "@/lib/control/data/usage/utc-at";
import { db } from "@/lib/control/data/db";

// Each tenant's checks over the last 15 rolled-up minutes, one row per tenant with traffic:
// rewritten by the rollup after each run that rolled up minutes, so the console sorts
// thousands of tenants by traffic from one small table instead of their usage rows.

export const TRAFFIC_WINDOW_MS = 15 * 60_000;
const TRAFFIC_LOCK = 7_466_513_002; // arbitrary constant: "tenant traffic"

/** Rewrites TenantTraffic from the tenants' own series (key and route "*") in [until - 15 min, until). */
export async function refreshTenantTraffic(until: number): Promise<void> {
  const since = until - TRAFFIC_WINDOW_MS;
  await db().$transaction(async (tx) => {
    // one rewrite at a time (a rollup taking over from another): the second waits, then
    // replaces the first's rows rather than colliding with them
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${TRAFFIC_LOCK}::bigint)`;
    await tx.$executeRaw`DELETE FROM "TenantTraffic"`;
    await tx.$executeRaw`
      INSERT INTO "TenantTraffic" ("tenantId", "checks", "rejected", "shadowRejected", "degraded", "since", "until")
      SELECT s."tenantId",
             coalesce(sum(m."allowed"), 0) + coalesce(sum(m."rejected"), 0) + coalesce(sum(m."degraded"), 0),
             coalesce(sum(m."rejected"), 0), coalesce(sum(m."shadowRejected"), 0), coalesce(sum(m."degraded"), 0),
             ${utcAt(since)}, ${utcAt(until)}
        FROM "UsageSeries" s JOIN "UsageMinute" m ON m."seriesId" = s."id"
       WHERE s."keyId" = '*' AND s."route" = '*' AND s."tenantId" <> '*'
             AND m."minute" >= ${utcAt(since)} AND m."minute" < ${utcAt(until)}
       GROUP BY s."tenantId"`;
  });
}
