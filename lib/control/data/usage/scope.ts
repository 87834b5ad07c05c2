import "server-only";
import type { Principal } from "@/lib/shared/principal";
import { tenantFor, type TenantRef } from "@/lib/control/data/tenant-access";
import { NotFoundError } from "@/lib/control/errors/errors";
import { db } from "@/lib/control/data/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { visibleTenantsSql } from "@/lib/control/data/tenant-scope-sql";
import { utcAt } from "@/lib/control/data/usage/utc-at";
import type { TableStretch } from "@/lib/control/data/usage/series-totals";

// Who may read a tenant's usage: anyone with a role in it (viewer and up) or an operator;
// others get NotFoundError, exactly as for a tenant that does not exist.

export async function usageTenant(principal: Principal, slug: string): Promise<TenantRef> {
  return tenantFor(db(), principal, slug, "viewer");
}

/** key id -> name for one tenant (revoked keys included: their past traffic still shows). */
export async function keyNames(tenantId: string): Promise<Map<string, string>> {
  const keys = await db().apiKey.findMany({ where: { tenantId }, select: { id: true, name: true } });
  return new Map(keys.map((k) => [k.id, k.name]));
}

/** The key id of a key name within the tenant; an unknown name is NotFound like the tenant. */
export async function keyIdByName(tenant: TenantRef, name: string): Promise<string> {
  const key = await db().apiKey.findUnique({
    where: { tenantId_name: { tenantId: tenant.id, name } },
    select: { id: true },
  });
  if (!key) throw new NotFoundError(`No key named ${name} in tenant ${tenant.slug}.`);
  return key.id;
}

/** Tenants the principal may see, for the overview. */
export async function visibleTenants(principal: Principal): Promise<TenantRef[]> {
  const all = await db().tenant.findMany({ select: { id: true, slug: true }, orderBy: { slug: "asc" } });
  return all.filter((t) => {
    if (principal.kind === "system" || principal.kind === "bootstrap") return true;
    if (principal.kind === "user") return principal.isOperator || principal.memberships.has(t.id);
    return principal.tenantId === null || principal.tenantId === t.id;
  });
}

/** Beyond this many visible tenants, "most limited" reads only those that rejected most. */
export const MOST_LIMITED_TENANTS = 50;

/**
 * The active tenants the principal sees whose checks "most limited" reads: all of them when
 * they are few, else the MOST_LIMITED_TENANTS with the most rejections in the rolled-up
 * stretches of the range (their own series, through the partial indexes on rows with
 * rejections: migration 20261209000000_console_scale), so the overview never reads 10,000
 * tenants' usage. Suspended tenants are left out: every check of theirs is denied by the
 * suspension, not limited.
 */
export async function limitedTenants(
  principal: Principal,
  stretches: TableStretch[],
  most = MOST_LIMITED_TENANTS,
): Promise<TenantRef[]> {
  const scope = visibleTenantsSql(principal);
  const active = await db().$queryRaw<Array<{ id: string; slug: string }>>`
    SELECT t."id", t."slug" FROM "Tenant" t WHERE ${scope} AND t."status" = 'active'
     ORDER BY t."slug" LIMIT ${most + 1}`;
  if (active.length <= most || stretches.length === 0) return active.slice(0, most);
  const parts = stretches.map(({ table, from, to }) => {
    const [name, column] = TABLES[table];
    return Prisma.sql`SELECT m."seriesId", m."rejected" FROM ${name} m
       WHERE m."seriesId" = ANY(ARRAY(SELECT "id" FROM "own")) AND m.${column} >= ${utcAt(from)}
             AND m.${column} < ${utcAt(to)} AND m."rejected" > 0`;
  });
  return db().$queryRaw<Array<{ id: string; slug: string }>>`
    WITH "own" AS MATERIALIZED (
      SELECT s."id", t."id" AS "tenantId", t."slug" FROM "Tenant" t
        JOIN "UsageSeries" s ON s."tenantId" = t."id" AND s."keyId" = '*' AND s."route" = '*'
       WHERE ${scope} AND t."status" = 'active')
    SELECT o."tenantId" AS "id", o."slug" FROM "own" o
      JOIN (${Prisma.join(parts, " UNION ALL ")}) r ON r."seriesId" = o."id"
     GROUP BY 1, 2 ORDER BY sum(r."rejected") DESC, o."slug" LIMIT ${most}`;
}

// identifiers from a fixed set, never from input
const TABLES = {
  minute: [Prisma.sql`"UsageMinute"`, Prisma.sql`"minute"`],
  hour: [Prisma.sql`"UsageHour"`, Prisma.sql`"hour"`],
  day: [Prisma.sql`"UsageDay"`, Prisma.sql`"day"`],
} as const;
