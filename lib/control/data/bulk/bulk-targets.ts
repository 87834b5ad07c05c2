import "server-only";
import { hasRole, type Principal, type Role } from "@/lib/shared/principal";
import type { DocumentError } from "@/lib/control/config/document";
import { ForbiddenError, ValidationFailed } from "@/lib/control/errors/errors";
import type { Tx } from "@/lib/control/data/tx";

// The tenants a bulk change names, found and authorized all at once before anything is
// written. A tenant the caller may not see reads exactly as one that does not exist (no
// probing), and every missing one is named at its index in the same answer.

export interface BulkTenant {
  id: string;
  slug: string;
  planId: string;
}

/** The tenants in the order given, and an error at the index of each unknown one. */
export async function lookUpTenants(
  tx: Tx,
  principal: Principal,
  slugs: readonly string[],
  field = "tenants",
): Promise<{ found: BulkTenant[]; errors: DocumentError[] }> {
  const rows = await tx.tenant.findMany({
    where: { slug: { in: [...slugs] } },
    select: { id: true, slug: true, planId: true },
  });
  const bySlug = new Map(rows.map((row) => [row.slug, row]));
  const errors: DocumentError[] = [];
  const found: BulkTenant[] = [];
  slugs.forEach((slug, i) => {
    const row = bySlug.get(slug);
    if (!row || !hasRole(principal, row.id, "viewer"))
      errors.push({ path: `${field}[${i}]`, message: `no tenant named ${slug}` });
    else found.push(row);
  });
  return { found, errors };
}

/** 403 naming every tenant where the principal holds less than `role`. */
export function assertRoleInAll(principal: Principal, tenants: readonly BulkTenant[], role: Role): void {
  const refused = tenants.filter((row) => !hasRole(principal, row.id, role)).map((row) => row.slug);
  if (refused.length > 0) {
    const plural = refused.length > 1 ? "s" : "";
    throw new ForbiddenError(`This needs the ${role} role in tenant${plural} ${refused.join(", ")}.`);
  }
}

/** The tenants in the order given; 422 naming each unknown one, 403 below `role`. */
export async function tenantsFor(
  tx: Tx,
  principal: Principal,
  slugs: readonly string[],
  role: Role,
): Promise<BulkTenant[]> {
  const { found, errors } = await lookUpTenants(tx, principal, slugs);
  throwIfAny(errors);
  assertRoleInAll(principal, found, role);
  return found;
}

/** Throws when there are errors; lists the first 100 and counts them all. */
export function throwIfAny(errors: readonly DocumentError[]): void {
  if (errors.length > 0) throw new ValidationFailed(errors.slice(0, 100), errors.length);
}
