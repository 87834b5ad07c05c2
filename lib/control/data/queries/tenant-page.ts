import "server-only";
import { roleIn, type Principal, type Role } from "@/lib/shared/principal";
import { db } from "@/lib/control/data/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { visibleTenantsSql as scopeOf } from "@/lib/control/data/tenant-scope-sql";
import { containsPattern, pageWindow, type PageWindow } from "@/lib/control/lists/list-params";
import type { TenantListQuery, TenantSort } from "@/lib/control/lists/tenant-list-query";

// One page of the tenants a principal may see, searched, filtered and sorted in SQL: the
// console lists 10,000 tenants a page at a time. Traffic is the rollup's 15-minute totals per
// tenant (TenantTraffic), one row each, never the tenants' usage rows.

export interface TenantPageRow {
  id: string;
  slug: string;
  name: string;
  plan: string;
  status: "active" | "suspended";
  role: Role | "operator";
  keys: number;
  checks: number;
  rejected: number;
  degraded: number;
}

export interface TenantPage extends PageWindow {
  rows: TenantPageRow[];
  total: number;
  size: number;
  /** the end of the 15 minutes the traffic covers (the last rollup), null before any */
  trafficUntil: Date | null;
}

function whereOf(principal: Principal, query: TenantListQuery): Prisma.Sql {
  const parts = [scopeOf(principal)];
  if (query.q !== "") {
    const like = containsPattern(query.q);
    parts.push(Prisma.sql`(t."slug" ILIKE ${like} ESCAPE '\\' OR t."name" ILIKE ${like} ESCAPE '\\')`);
  }
  if (query.plan !== undefined) parts.push(Prisma.sql`p."name" = ${query.plan}`);
  if (query.status !== undefined) parts.push(Prisma.sql`t."status"::text = ${query.status}`);
  return Prisma.join(parts, " AND ");
}

// identifiers from this fixed map only, never from input
const ORDER: Record<TenantSort, Prisma.Sql> = {
  tenant: Prisma.sql`lower(t."name")`,
  plan: Prisma.sql`p."name"`,
  status: Prisma.sql`t."status"::text`,
  traffic: Prisma.sql`coalesce(tt."checks", 0)`,
  rejected: Prisma.sql`coalesce(tt."rejected", 0)`,
  keys: Prisma.sql`coalesce(k."keys", 0)`,
  role: Prisma.sql`m."role"`,
};

interface PageRow {
  id: string;
  slug: string;
  name: string;
  plan: string;
  status: "active" | "suspended";
  checks: number;
  rejected: number;
  degraded: number;
}

export async function tenantPage(principal: Principal, query: TenantListQuery): Promise<TenantPage> {
  const where = whereOf(principal, query);
  const from = Prisma.sql`FROM "Tenant" t JOIN "Plan" p ON p."id" = t."planId"`;
  const [{ total }] = await db().$queryRaw<[{ total: number }]>`
    SELECT count(*)::int AS "total" ${from} WHERE ${where}`;
  const window = pageWindow(total, query.page, query.size);
  const userId = principal.kind === "user" ? principal.id : "";
  const keysJoin =
    query.sort === "keys"
      ? Prisma.sql`LEFT JOIN (SELECT "tenantId", count(*) AS "keys" FROM "ApiKey" WHERE "revokedAt" IS NULL
                               GROUP BY 1) k ON k."tenantId" = t."id"`
      : Prisma.empty;
  const dir = query.dir === "asc" ? Prisma.sql`ASC` : Prisma.sql`DESC`;
  const rows = await db().$queryRaw<PageRow[]>`
    SELECT t."id", t."slug", t."name", p."name" AS "plan", t."status"::text AS "status",
           coalesce(tt."checks", 0)::float8 AS "checks", coalesce(tt."rejected", 0)::float8 AS "rejected",
           coalesce(tt."degraded", 0)::float8 AS "degraded"
      ${from}
      LEFT JOIN "TenantTraffic" tt ON tt."tenantId" = t."id"
      LEFT JOIN "Membership" m ON m."tenantId" = t."id" AND m."userId" = ${userId}
      ${keysJoin}
     WHERE ${where}
     ORDER BY ${ORDER[query.sort]} ${dir} NULLS LAST, t."slug" ASC
     LIMIT ${query.size} OFFSET ${window.offset}`;
  const ids = rows.map((r) => r.id);
  const [keys, until] = await Promise.all([
    db().apiKey.groupBy({
      by: ["tenantId"],
      where: { tenantId: { in: ids }, revokedAt: null },
      _count: true,
    }),
    db().tenantTraffic.aggregate({ _max: { until: true } }),
  ]);
  const keysOf = new Map(keys.map((k) => [k.tenantId, k._count]));
  return {
    ...window,
    total,
    size: query.size,
    trafficUntil: until._max.until,
    rows: rows.flatMap((r) => {
      const role = roleIn(principal, r.id);
      return role ? [{ ...r, role, keys: keysOf.get(r.id) ?? 0 }] : [];
    }),
  };
}

export interface TrafficTotals {
  checks: number;
  rejected: number;
  degraded: number;
}

/** The 15-minute totals over every tenant the principal sees (the overview's degraded banner). */
export async function visibleTrafficTotals(principal: Principal): Promise<TrafficTotals> {
  const [sums] = await db().$queryRaw<[TrafficTotals]>`
    SELECT coalesce(sum(tt."checks"), 0)::float8 AS "checks", coalesce(sum(tt."rejected"), 0)::float8 AS "rejected",
           coalesce(sum(tt."degraded"), 0)::float8 AS "degraded"
      FROM "TenantTraffic" tt JOIN "Tenant" t ON t."id" = tt."tenantId"
     WHERE ${scopeOf(principal)}`;
  return sums;
}

/** The visible tenants with degraded checks in the 15 minutes, most first (whose causes to read). */
export async function degradedTenantSlugs(principal: Principal, most: number): Promise<string[]> {
  const rows = await db().$queryRaw<Array<{ slug: string }>>`
    SELECT t."slug" FROM "TenantTraffic" tt JOIN "Tenant" t ON t."id" = tt."tenantId"
     WHERE ${scopeOf(principal)} AND tt."degraded" > 0
     ORDER BY tt."degraded" DESC, t."slug" LIMIT ${most}`;
  return rows.map((r) => r.slug);
}
