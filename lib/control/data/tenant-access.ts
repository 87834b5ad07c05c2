import "server-only";
import { hasRole, type Principal, type Role } from "@/lib/shared/principal";
import { NotFoundError, ForbiddenError } from "@/lib/control/errors/errors";
import { db } from "@/lib/control/data/db";
import type { Tx } from "@/lib/control/data/tx";

export interface TenantRef {
  id: string;
  slug: string;
}

/**
 * The tenant by slug when the principal may act on it with at least `needed`. A tenant it
 * may not see at all is "not found", exactly as one that does not exist (no probing).
 */
/** tenantFor outside a transaction, for code above the data layer (lib/control/ops, counters). */
export function readableTenant(principal: Principal, slug: string, needed: Role): Promise<TenantRef> {
  return tenantFor(db(), principal, slug, needed);
}

export async function tenantFor(
  tx: Tx,
  principal: Principal,
  slug: string,
  needed: Role,
): Promise<TenantRef> {
  const tenant = await tx.tenant.findUnique({ where: { slug }, select: { id: true, slug: true } });
  if (!tenant || !hasRole(principal, tenant.id, "viewer"))
    throw new NotFoundError(`No tenant named ${slug}.`);
  if (!hasRole(principal, tenant.id, needed)) {
    throw new ForbiddenError(`This needs the ${needed} role in tenant ${slug}.`);
  }
  return tenant;
}
