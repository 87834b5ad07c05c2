import "server-only";
import type { Principal } from "@/lib/auth/principal";
import type { TenantRef } from "@/lib/data/tenant-access";
import { readRows, type RowContext, type UsageRow } from "@/lib/data/usage/rows";
import { keyIdByName, keyNames, usageTenant, visibleTenants } from "@/lib/data/usage/scope";
import type { UsageSource } from "@/lib/usage/types";

// The one way usage is read for a reader: the admin API, the usage page and its live feed
// all come through here. Scoping: one tenant the principal may see (NotFoundError
// otherwise) or, without a tenant, every tenant it sees; then narrowed to a key and a route.

export interface UsageScope {
  /** undefined: every tenant the principal sees */
  tenant?: string;
  /** a key name; needs a tenant */
  key?: string;
  /** a route pattern as recorded ("" for checks that matched none) */
  route?: string;
  from: number;
  to: number;
  source: UsageSource;
  /** key names of every tenant read, not only of a single one (the "most limited" list) */
  withNames?: boolean;
}

export interface ScopedRow extends UsageRow {
  tenant: string;
}

export interface ScopedUsage {
  tenants: TenantRef[];
  rows: ScopedRow[];
  /** key id -> name over the tenants read (ids are unique across tenants); see withNames */
  names: Map<string, string>;
}

export async function readScoped(
  principal: Principal,
  scope: UsageScope,
  ctx: RowContext,
): Promise<ScopedUsage> {
  const tenants =
    scope.tenant === undefined
      ? await visibleTenants(principal)
      : [await usageTenant(principal, scope.tenant)];
  const only = tenants.length === 1 ? tenants[0] : undefined;
  const keyId = scope.key !== undefined && only ? await keyIdByName(only, scope.key) : undefined;
  const keep = (r: UsageRow) =>
    (keyId === undefined || r.keyId === keyId) && (scope.route === undefined || r.route === scope.route);
  const rows: ScopedRow[] = [];
  const names = new Map<string, string>();
  for (const tenant of tenants) {
    for (const row of await readRows(tenant.id, scope.from, scope.to, scope.source, ctx)) {
      if (keep(row)) rows.push({ ...row, tenant: tenant.slug });
    }
    if (only || scope.withNames) for (const [id, name] of await keyNames(tenant.id)) names.set(id, name);
  }
  return { tenants, rows, names };
}
