import "server-only";
import { hasRole, isOperator, type Principal } from "@/lib/shared/principal";
import type { DocumentError, TenantDoc } from "@/lib/control/config/document";

// Who may change a tenant's own fields, whichever path the change takes (admin API import,
// the dashboard's YAML import, the settings form): all of them end in importConfig, which
// asks this. Renaming is the owner's; plan and status are an operator's.

const displayName = (tenant: TenantDoc): string => tenant.name ?? tenant.slug;

/** Errors (with document paths under `path`) for the fields this principal may not change. */
export function tenantFieldErrors(
  principal: Principal,
  tenantId: string,
  next: TenantDoc,
  before: TenantDoc,
  path = "tenants[0]",
): DocumentError[] {
  if (isOperator(principal)) return [];
  const errors: DocumentError[] = [];
  if (displayName(next) !== displayName(before) && !hasRole(principal, tenantId, "owner")) {
    errors.push({
      path: `${path}.name`,
      message: `only the tenant's owner or an operator can rename it (it is ${JSON.stringify(displayName(before))}; a left-out name means the slug)`,
    });
  }
  if (next.plan !== before.plan)
    errors.push({ path: `${path}.plan`, message: "only an operator can change a tenant's plan" });
  if (next.status !== before.status)
    errors.push({ path: `${path}.status`, message: "only an operator can suspend or reactivate a tenant" });
  return errors;
}
