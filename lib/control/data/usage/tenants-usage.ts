import "server-only";
import type { Principal } from "@/lib/shared/principal";
import { db } from "@/lib/control/data/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { visibleTenantsSql } from "@/lib/control/data/tenant-scope-sql";
import { utcAt } from "@/lib/control/data/usage/utc-at";
import type { TableStretch } from "@/lib/control/data/usage/series-totals";
import type { Counts } from "@/lib/shared/usage-counts";

// The rolled-up usage of every tenant a principal sees, however many tenants (the usage
// index of 10,000): per step across tenants for the chart (the installation's series for
// those who see every tenant, installation-series.ts; else their tenants' own series
// summed), and per tenant over the whole range for the breakdown, in one query each.

export interface TenantSeriesRef {
  seriesId: number;
  tenantId: string;
  slug: string;
}

/** The visible tenants' own series (a tenant without usage has none). */
export async function visibleTenantSeries(principal: Principal): Promise<TenantSeriesRef[]> {
  return db().$queryRaw<TenantSeriesRef[]>`
    SELECT s."id" AS "seriesId", t."id" AS "tenantId", t."slug" FROM "Tenant" t
      JOIN "UsageSeries" s ON s."tenantId" = t."id" AND s."keyId" = '*' AND s."route" = '*'
     WHERE ${visibleTenantsSql(principal)}`;
}

// identifiers from a fixed set, never from input
const TABLES = {
  minute: [Prisma.sql`"UsageMinute"`, Prisma.sql`"minute"`],
  hour: [Prisma.sql`"UsageHour"`, Prisma.sql`"hour"`],
  day: [Prisma.sql`"UsageDay"`, Prisma.sql`"day"`],
} as const;

/** `ids`: an int[] expression (a bound array, or ARRAY(SELECT ...) of a WITH). */
function rowsOf(ids: Prisma.Sql, stretches: TableStretch[]): Prisma.Sql {
  const parts = stretches.map(({ table, from, to }) => {
    const [name, column] = TABLES[table];
    return Prisma.sql`SELECT m.${column} AS "at", m."seriesId", m."allowed", m."rejected", m."shadowRejected", m."degraded",
             m."leasesAcquired", m."leasesReleased", m."leasesExpired"
        FROM ${name} m
       WHERE m."seriesId" = ANY(${ids}) AND m.${column} >= ${utcAt(from)} AND m.${column} < ${utcAt(to)}`;
  });
  return Prisma.join(parts, " UNION ALL ");
}

const SUMS = Prisma.sql`coalesce(sum(u."allowed"), 0)::float8 AS "allowed", coalesce(sum(u."rejected"), 0)::float8 AS "rejected",
  coalesce(sum(u."shadowRejected"), 0)::float8 AS "shadowRejected", coalesce(sum(u."degraded"), 0)::float8 AS "degraded",
  coalesce(sum(u."leasesAcquired"), 0)::float8 AS "leasesAcquired", coalesce(sum(u."leasesReleased"), 0)::float8 AS "leasesReleased",
  coalesce(sum(u."leasesExpired"), 0)::float8 AS "leasesExpired"`;

/** The series' rows summed per `stepMs` bucket (t its start, aligned to the epoch). */
export async function summedPerStep(
  ids: number[],
  stretches: TableStretch[],
  stepMs: number,
): Promise<Array<Counts & { t: number }>> {
  if (ids.length === 0 || stretches.length === 0) return [];
  const stride = Prisma.sql`make_interval(secs => ${stepMs / 1_000}::float8)`;
  return db().$queryRaw<Array<Counts & { t: number }>>`
    SELECT (extract(epoch FROM date_bin(${stride}, u."at", TIMESTAMP '1970-01-01')) * 1000)::float8 AS "t", ${SUMS}
      FROM (${rowsOf(Prisma.sql`${ids}::int[]`, stretches)}) u GROUP BY 1`;
}

const countsOf = (row: Counts): Counts => ({
  allowed: row.allowed,
  rejected: row.rejected,
  shadowRejected: row.shadowRejected,
  degraded: row.degraded,
  leasesAcquired: row.leasesAcquired,
  leasesReleased: row.leasesReleased,
  leasesExpired: row.leasesExpired,
});

/** The busiest tenants by name, the others summed into one row. */
export interface TenantTotals {
  named: Array<Counts & { slug: string }>;
  others: Counts;
}

/**
 * Each visible tenant's own series summed over the stretches, ranked by checks: the `top`
 * (ties at the edge included) and those of `tenantIds` by slug (the tenants Redis still has
 * checks of, which could climb into the top), the rest summed as `others`. One query: the
 * tenants' series first (materialized, so the rows are read by the tables' primary keys),
 * never a list of 10,000 ids sent, nor 10,000 totals back.
 */
export async function summedPerTenant(
  principal: Principal,
  stretches: TableStretch[],
  keep: { top: number; tenantIds: string[] },
): Promise<TenantTotals> {
  const none: Counts = {
    allowed: 0,
    rejected: 0,
    shadowRejected: 0,
    degraded: 0,
    leasesAcquired: 0,
    leasesReleased: 0,
    leasesExpired: 0,
  };
  if (stretches.length === 0) return { named: [], others: none };
  const rows = await db().$queryRaw<Array<Counts & { slug: string | null }>>`
    WITH "own" AS MATERIALIZED (
      SELECT s."id", t."id" AS "tenantId", t."slug" FROM "Tenant" t
        JOIN "UsageSeries" s ON s."tenantId" = t."id" AND s."keyId" = '*' AND s."route" = '*'
       WHERE ${visibleTenantsSql(principal)}),
    "per" AS (
      SELECT o."slug", o."tenantId", ${SUMS}
        FROM (${rowsOf(Prisma.sql`ARRAY(SELECT "id" FROM "own")`, stretches)}) u
        JOIN "own" o ON o."id" = u."seriesId"
       GROUP BY o."slug", o."tenantId"),
    "ranked" AS (
      SELECT p.*, rank() OVER (ORDER BY p."allowed" + p."rejected" + p."shadowRejected" + p."degraded" DESC) AS "place"
        FROM "per" p)
    SELECT CASE WHEN r."place" <= ${keep.top}::int OR r."tenantId" = ANY(${keep.tenantIds}::text[]) THEN r."slug" END AS "slug",
           sum(r."allowed")::float8 AS "allowed", sum(r."rejected")::float8 AS "rejected",
           sum(r."shadowRejected")::float8 AS "shadowRejected", sum(r."degraded")::float8 AS "degraded",
           sum(r."leasesAcquired")::float8 AS "leasesAcquired", sum(r."leasesReleased")::float8 AS "leasesReleased",
           sum(r."leasesExpired")::float8 AS "leasesExpired"
      FROM "ranked" r GROUP BY 1`;
  const rest = rows.find((r) => r.slug === null);
  return {
    named: rows.flatMap(({ slug, ...counts }) => (slug === null ? [] : [{ ...counts, slug }])),
    others: rest ? countsOf(rest) : none,
  };
}

/** Of these tenant ids, those the principal sees (the tenants Redis says had usage). */
export async function visibleAmong(
  principal: Principal,
  ids: string[],
): Promise<Array<{ id: string; slug: string }>> {
  if (ids.length === 0) return [];
  return db().$queryRaw<Array<{ id: string; slug: string }>>`
    SELECT t."id", t."slug" FROM "Tenant" t WHERE t."id" = ANY(${ids}::text[]) AND ${visibleTenantsSql(principal)}`;
}

/** How many tenants the principal sees (the usage index reads them one by one up to a few). */
export async function countVisibleTenants(principal: Principal): Promise<number> {
  const [{ n }] = await db().$queryRaw<[{ n: number }]>`
    SELECT count(*)::int AS "n" FROM "Tenant" t WHERE ${visibleTenantsSql(principal)}`;
  return n;
}
