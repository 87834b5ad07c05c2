import "server-only";
import type { Principal } from "@/lib/shared/principal";
import { db } from "@/lib/control/data/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { visibleTenantsSql } from "@/lib/control/data/tenant-scope-sql";
import { utcAt } from "@/lib/control/data/usage/utc-at";
import type { TableStretch } from "@/lib/control/data/usage/series-totals";
import type { Counts } from "@/lib/shared/usage-counts";

// The rolled-up usage of every tenant a principal sees, in two queries however many tenants
// (the usage index of 10,000): their own series (key and route "*") summed per step across
// tenants for the chart, and summed per tenant over the whole range for the breakdown.

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

function rowsOf(ids: number[], stretches: TableStretch[]): Prisma.Sql {
  const parts = stretches.map(({ table, from, to }) => {
    const [name, column] = TABLES[table];
    return Prisma.sql`SELECT m.${column} AS "at", m."seriesId", m."allowed", m."rejected", m."shadowRejected", m."degraded",
             m."leasesAcquired", m."leasesReleased", m."leasesExpired"
        FROM ${name} m
       WHERE m."seriesId" = ANY(${ids}::int[]) AND m.${column} >= ${utcAt(from)} AND m.${column} < ${utcAt(to)}`;
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
      FROM (${rowsOf(ids, stretches)}) u GROUP BY 1`;
}

/** The series' rows summed per series over the stretches. */
export async function summedPerSeries(
  ids: number[],
  stretches: TableStretch[],
): Promise<Array<Counts & { seriesId: number }>> {
  if (ids.length === 0 || stretches.length === 0) return [];
  return db().$queryRaw<Array<Counts & { seriesId: number }>>`
    SELECT u."seriesId", ${SUMS} FROM (${rowsOf(ids, stretches)}) u GROUP BY 1`;
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
