import "server-only";
import type { Principal } from "@/lib/shared/principal";
import { tenantFor, type TenantRef } from "@/lib/control/data/tenant-access";
import { NotFoundError } from "@/lib/control/errors/errors";
import { db } from "@/lib/control/data/db";

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
