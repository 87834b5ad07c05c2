import "server-only";
import type { ConfigDocument, DocumentError, TenantDoc } from "@/lib/control/config/document";
import { env } from "@/lib/shared/env";
import { listEntryCount } from "@/lib/control/config/document/list-schema";

// Count caps: no tenant grows the configuration, and with it every server's
// snapshot and the check path's memory, without bound. Checked on the state a change
// would leave, on every path that adds routes, limits (importConfig, which dashboard edits
// also use) or keys (createApiKey: lib/control/data/key-cap.ts), before anything is written.

export interface CountCaps {
  routesPerTenant: number;
  limitsPerTenant: number;
  keysPerTenant: number;
  limitsTotal: number;
  /** allow and deny list entries of one tenant; absent: the setting */
  listEntriesPerTenant?: number;
  /** entries of the global lists; absent: the setting */
  listEntriesGlobal?: number;
}

export function countCaps(): CountCaps {
  const e = env();
  return {
    routesPerTenant: e.SLUICE_MAX_ROUTES_PER_TENANT,
    limitsPerTenant: e.SLUICE_MAX_LIMITS_PER_TENANT,
    keysPerTenant: e.SLUICE_MAX_KEYS_PER_TENANT,
    limitsTotal: e.SLUICE_MAX_LIMITS_TOTAL,
    listEntriesPerTenant: e.SLUICE_MAX_LIST_ENTRIES_PER_TENANT,
    listEntriesGlobal: e.SLUICE_MAX_LIST_ENTRIES_GLOBAL,
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
  errors.push(...listCapErrors(next, caps));
  const total = totalAfter(next, current, prune, unlisted);
  if (total > caps.limitsTotal) {
    errors.push({
      path: "",
      message: `the configuration would hold ${total} limits; at most ${caps.limitsTotal} in all (SLUICE_MAX_LIMITS_TOTAL)`,
    });
  }
  return errors;
}

/** Lists hold at most their cap of entries: they are matched in every server's memory. */
function listCapErrors(next: ConfigDocument, caps: CountCaps): DocumentError[] {
  const errors: DocumentError[] = [];
  const perTenant = caps.listEntriesPerTenant ?? env().SLUICE_MAX_LIST_ENTRIES_PER_TENANT;
  (next.tenants ?? []).forEach((tenant, t) => {
    const entries = listEntryCount(tenant.lists);
    if (entries > perTenant)
      errors.push({
        path: `tenants[${t}].lists`,
        message: `${entries} entries; a tenant's allow and deny lists may hold at most ${perTenant} together (SLUICE_MAX_LIST_ENTRIES_PER_TENANT)`,
      });
  });
  const global = caps.listEntriesGlobal ?? env().SLUICE_MAX_LIST_ENTRIES_GLOBAL;
  const entries = listEntryCount(next.lists);
  if (entries > global)
    errors.push({
      path: "lists",
      message: `${entries} entries; the global allow and deny lists may hold at most ${global} together (SLUICE_MAX_LIST_ENTRIES_GLOBAL)`,
    });
  return errors;
}
