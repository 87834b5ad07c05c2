import "server-only";
import type { Principal } from "@/lib/shared/principal";
import { db } from "@/lib/control/data/db";
import { visibleTenantsSql } from "@/lib/control/data/tenant-scope-sql";
import { containsPattern } from "@/lib/control/lists/list-params";

// The header's search: tenants by slug or name, API keys by name or prefix, and where to look
// a subject up, all within the tenants the principal sees (a tenant admin never finds another
// tenant's). A few of each, best first: an exact match, then a prefix, then the rest.

export const SEARCH_RESULTS = 10;

export interface SearchResults {
  tenants: Array<{ slug: string; name: string }>;
  keys: Array<{ tenant: string; name: string; prefix: string; revoked: boolean }>;
  /** the visible tenants a subject can be looked up in (the matching tenants first) */
  subjectTenants: string[];
}

export async function searchConsole(principal: Principal, q: string): Promise<SearchResults> {
  const scope = visibleTenantsSql(principal);
  const like = containsPattern(q);
  const lower = q.toLowerCase();
  const [tenants, keys, some] = await Promise.all([
    db().$queryRaw<Array<{ slug: string; name: string }>>`
      SELECT t."slug", t."name" FROM "Tenant" t
       WHERE ${scope} AND (t."slug" ILIKE ${like} ESCAPE '\\' OR t."name" ILIKE ${like} ESCAPE '\\')
       ORDER BY (lower(t."slug") = ${lower} OR lower(t."name") = ${lower}) DESC,
                starts_with(lower(t."slug"), ${lower}) DESC, t."slug"
       LIMIT ${SEARCH_RESULTS}`,
    db().$queryRaw<Array<{ tenant: string; name: string; prefix: string; revoked: boolean }>>`
      SELECT t."slug" AS "tenant", k."name", k."prefix", (k."revokedAt" IS NOT NULL) AS "revoked"
        FROM "ApiKey" k JOIN "Tenant" t ON t."id" = k."tenantId"
       WHERE ${scope} AND (k."name" ILIKE ${like} ESCAPE '\\' OR k."prefix" ILIKE ${like} ESCAPE '\\')
       ORDER BY (lower(k."name") = ${lower} OR lower(k."prefix") = ${lower}) DESC, k."revokedAt" IS NOT NULL,
                t."slug", k."name"
       LIMIT ${SEARCH_RESULTS}`,
    db().$queryRaw<Array<{ slug: string }>>`
      SELECT t."slug" FROM "Tenant" t WHERE ${scope} ORDER BY t."slug" LIMIT 5`,
  ]);
  const subjectTenants = [...new Set([...tenants.map((t) => t.slug), ...some.map((t) => t.slug)])].slice(
    0,
    5,
  );
  return { tenants, keys, subjectTenants };
}
