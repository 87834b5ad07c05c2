import "server-only";
import type { ConfigDocument, DocumentError, TenantDoc } from "@/lib/control/config/document";
import { env } from "@/lib/shared/env";

// Count caps: no tenant grows the configuration, and with it every server's
// snapshot and the check path's memory, without bound. Checked on the state a change
// would leave, on every path that adds routes, limits (importConfig, which dashboard edits
// also use) or keys (createApiKey: lib/control/data/key-cap.ts), before anything is written.

export interface CountCaps {
  routesPerTenant: number;
  limitsPerTenant: number;
  keysPerTenant: number;
  limitsTotal: number;
}

export function countCaps(): CountCaps {
  const e = env();
  return {
    routesPerTenant: e.SLUICE_MAX_ROUTES_PER_TENANT,
    limitsPerTenant: e.SLUICE_MAX_LIMITS_PER_TENANT,
    keysPerTenant: e.SLUICE_MAX_KEYS_PER_TENANT,
    limitsTotal: e.SLUICE_MAX_LIMITS_TOTAL,
  };
}

/** Tenant, tenant-route and key limits: everything the tenant's part of a document declares. */
function tenantLimitCount(tenant: TenantDoc): number {
  let count = tenant.limits.length;
  for (const route of tenant.routes) count += route.limits.length;
  for (const key of tenant.keys) count += key.limits.length;
  return count;
}

function totalAfter(
  next: ConfigDocument,
  current: ConfigDocument,
  prune: boolean,
  unlisted: number | undefined,
): number {
  let total = 0;
  for (const plan of next.plans ?? current.plans ?? []) total += plan.limits.length;
  for (const route of next.routes ?? current.routes ?? []) total += route.limits.length;
  const listed = new Map((next.tenants ?? []).map((t) => [t.slug, t]));
  for (const tenant of listed.values()) total += tenantLimitCount(tenant);
  if (prune) return total;
  if (unlisted !== undefined) return total + unlisted;
  for (const tenant of current.tenants ?? []) if (!listed.has(tenant.slug)) total += tenantLimitCount(tenant);
  return total;
}

/**
 * Errors for every cap the state after this import would exceed. `unlisted`: the limits of
 * the tenants `next` does not list, when `current` holds only the listed ones (import-state.ts).
 */
export function documentCapErrors(
  next: ConfigDocument,
  current: ConfigDocument,
  prune: boolean,
  caps: CountCaps = countCaps(),
  unlisted?: number,
): DocumentError[] {
  const errors: DocumentError[] = [];
  (next.tenants ?? []).forEach((tenant, t) => {
    if (tenant.routes.length > caps.routesPerTenant) {
      errors.push({
        path: `tenants[${t}].routes`,
        message: `${tenant.routes.length} routes; a tenant may have at most ${caps.routesPerTenant} (SLUICE_MAX_ROUTES_PER_TENANT)`,
      });
    }
    const limits = tenantLimitCount(tenant);
    if (limits > caps.limitsPerTenant) {
      errors.push({
        path: `tenants[${t}]`,
        message: `${limits} limits (its own, its routes' and its keys'); a tenant may have at most ${caps.limitsPerTenant} (SLUICE_MAX_LIMITS_PER_TENANT)`,
      });
    }
  });
  const total = totalAfter(next, current, prune, unlisted);
  if (total > caps.limitsTotal) {
    errors.push({
      path: "",
      message: `the configuration would hold ${total} limits; at most ${caps.limitsTotal} in all (SLUICE_MAX_LIMITS_TOTAL)`,
    });
  }
  return errors;
}
