import "server-only";
import { db } from "@/lib/control/data/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { utcAt } from "@/lib/control/data/usage/utc-at";

// The rolled-up totals of many tenants' key series and route series in one query (the
// overview's "most limited"), not a query per tenant: first the series of those tenants
// (the dictionary's unique index, by tenant), then their rows in each stretch of time from
// the table that holds it, summed per series. Only series with rejections come back.

export interface SeriesTotal {
  tenantId: string;
  /** "*" on a route's series */
  keyId: string;
  /** "*" on a key's series */
  route: string;
  checks: number;
  rejected: number;
}

export interface TableStretch {
  table: "minute" | "hour" | "day";
  from: number;
  to: number;
}

// identifiers from a fixed set, never from input
const TABLES = {
  minute: [Prisma.sql`"UsageMinute"`, Prisma.sql`"minute"`],
  hour: [Prisma.sql`"UsageHour"`, Prisma.sql`"hour"`],
  day: [Prisma.sql`"UsageDay"`, Prisma.sql`"day"`],
} as const;

interface SeriesRow {
  id: number;
  tenantId: string;
  keyId: string;
  route: string;
}

/** Key and route totals with rejections of `tenantIds` over the stretches. */
export async function limitedSeriesTotals(
  tenantIds: string[],
  stretches: TableStretch[],
): Promise<SeriesTotal[]> {
  if (tenantIds.length === 0 || stretches.length === 0) return [];
  // a key's series (route "*") or a route's (key "*"), never the tenant's own or a pair's
  const series = await db().$queryRaw<SeriesRow[]>`
    SELECT s."id", s."tenantId", s."keyId", s."route" FROM "UsageSeries" s
     WHERE s."tenantId" = ANY(${tenantIds}::text[]) AND (s."keyId" = '*') <> (s."route" = '*')`;
  if (series.length === 0) return [];
  const ids = series.map((s) => s.id);
  const parts = stretches.map(({ table, from, to }) => {
    const [name, column] = TABLES[table];
    return Prisma.sql`SELECT m."seriesId", m."allowed", m."rejected", m."degraded" FROM ${name} m
       WHERE m."seriesId" = ANY(${ids}::int[]) AND m.${column} >= ${utcAt(from)} AND m.${column} < ${utcAt(to)}`;
  });
  const sums = await db().$queryRaw<Array<{ seriesId: number; checks: number; rejected: number }>>`
    SELECT u."seriesId",
           (coalesce(sum(u."allowed"), 0) + coalesce(sum(u."rejected"), 0) + coalesce(sum(u."degraded"), 0))::float8 AS "checks",
           coalesce(sum(u."rejected"), 0)::float8 AS "rejected"
      FROM (${Prisma.join(parts, " UNION ALL ")}) u
     GROUP BY 1 HAVING sum(u."rejected") > 0`;
  const byId = new Map(series.map((s) => [s.id, s]));
  return sums.flatMap((r) => {
    const s = byId.get(r.seriesId);
    return s
      ? [{ tenantId: s.tenantId, keyId: s.keyId, route: s.route, checks: r.checks, rejected: r.rejected }]
      : [];
  });
}

/** key id -> name for these keys (the leaders' names only, not every tenant's keys). */
export async function namesOfKeys(ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const keys = await db().apiKey.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
  return new Map(keys.map((k) => [k.id, k.name]));
}
