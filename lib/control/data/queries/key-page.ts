import "server-only";
import type { Principal } from "@/lib/shared/principal";
import { db } from "@/lib/control/data/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { tenantFor } from "@/lib/control/data/tenant-access";
import type { KeySummary } from "@/lib/control/data/api-keys";
import { containsPattern, pageWindow, type PageWindow } from "@/lib/control/lists/list-params";
import type { KeyListQuery, KeySort } from "@/lib/control/lists/key-list-query";

// One page of a tenant's API keys, searched, filtered and sorted in SQL (a busy tenant has
// thousands). Sorting by traffic takes the tenant's per-key totals as arrays (read from usage
// by the caller) and joins them by key name, so the order and the page come from one query.

export interface KeyTotals {
  names: string[];
  checks: number[];
  rejected: number[];
}

export interface KeyPage extends PageWindow {
  rows: KeySummary[];
  /** matching the search and filter */
  total: number;
  /** every key of the tenant */
  all: number;
}

// identifiers from this fixed map only, never from input
const ORDER: Record<KeySort, Prisma.Sql> = {
  name: Prisma.sql`k."name"`,
  prefix: Prisma.sql`k."prefix"`,
  state: Prisma.sql`"state"`,
  created: Prisma.sql`k."createdAt"`,
  expires: Prisma.sql`k."expiresAt"`,
  used: Prisma.sql`k."lastUsedAt"`,
  checks: Prisma.sql`coalesce(tr."checks", 0)`,
  rejected: Prisma.sql`coalesce(tr."rejected", 0)`,
  rate: Prisma.sql`CASE WHEN tr."checks" > 0 THEN tr."rejected" / tr."checks" END`,
};

export async function keyPage(
  principal: Principal,
  slug: string,
  query: KeyListQuery,
  totals?: KeyTotals,
): Promise<KeyPage> {
  const tenant = await tenantFor(db(), principal, slug, "viewer");
  // the timestamps are UTC wall time (TIMESTAMP(3)): compared with now as text, not now()
  const now = Prisma.sql`${new Date().toISOString()}::timestamp`;
  const state = Prisma.sql`CASE WHEN k."revokedAt" IS NOT NULL THEN 'revoked'
    WHEN k."expiresAt" IS NOT NULL AND k."expiresAt" <= ${now} THEN 'expired' ELSE 'active' END`;
  const parts = [Prisma.sql`k."tenantId" = ${tenant.id}`];
  if (query.q !== "") {
    const like = containsPattern(query.q);
    parts.push(Prisma.sql`(k."name" ILIKE ${like} ESCAPE '\\' OR k."prefix" ILIKE ${like} ESCAPE '\\')`);
  }
  if (query.state !== undefined) parts.push(Prisma.sql`(${state}) = ${query.state}`);
  const where = Prisma.join(parts, " AND ");
  const [{ total, all }] = await db().$queryRaw<[{ total: number; all: number }]>`
    SELECT count(*) FILTER (WHERE ${where})::int AS "total", count(*)::int AS "all"
      FROM "ApiKey" k WHERE k."tenantId" = ${tenant.id}`;
  const window = pageWindow(total, query.page, query.size);
  const traffic = totals
    ? Prisma.sql`LEFT JOIN unnest(${totals.names}::text[], ${totals.checks}::float8[], ${totals.rejected}::float8[])
                   AS tr("name", "checks", "rejected") ON tr."name" = k."name"`
    : Prisma.sql`LEFT JOIN (SELECT NULL::text AS "name", 0::float8 AS "checks", 0::float8 AS "rejected") tr ON false`;
  const dir = query.dir === "asc" ? Prisma.sql`ASC` : Prisma.sql`DESC`;
  const rows = await db().$queryRaw<KeySummary[]>`
    SELECT k."id", k."name", k."prefix", k."createdAt", k."expiresAt", k."revokedAt", k."lastUsedAt",
           k."previousPrefix", k."previousUntil", ${state} AS "state"
      FROM "ApiKey" k ${traffic}
     WHERE ${where}
     ORDER BY ${ORDER[query.sort]} ${dir} NULLS LAST, k."name" ASC
     LIMIT ${query.size} OFFSET ${window.offset}`;
  return { ...window, total, all, rows };
}

/** The names of the tenant's active keys, by name, at most `limit` (the rotate form's choices). */
export async function activeKeyNames(principal: Principal, slug: string, limit: number): Promise<string[]> {
  const tenant = await tenantFor(db(), principal, slug, "viewer");
  const now = Prisma.sql`${new Date().toISOString()}::timestamp`;
  const rows = await db().$queryRaw<Array<{ name: string }>>`
    SELECT k."name" FROM "ApiKey" k
     WHERE k."tenantId" = ${tenant.id} AND k."revokedAt" IS NULL
       AND (k."expiresAt" IS NULL OR k."expiresAt" > ${now})
     ORDER BY k."name" LIMIT ${limit}`;
  return rows.map((r) => r.name);
}
