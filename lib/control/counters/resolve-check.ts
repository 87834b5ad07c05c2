import "server-only";
import {
  resolveRoutes,
  shownRoute,
  type CompiledTenant,
  type RouteResolution,
  type Snapshot,
} from "@/lib/control/config/compile";
import { NotFoundError } from "@/lib/control/errors/errors";
import { limitsNamed } from "@/lib/control/config/compile/limits-named";
import type { CompiledLimit } from "@/lib/control/config/compile";
import { latestSnapshot } from "@/lib/control/data/counters-store";

// Where a query of the admin API's counter calls (tenant, key, route) lands in a compiled
// snapshot: the tenant, the key's id (counter owner) and the resolved route patterns.

export interface ResolvedCheck {
  snapshot: Snapshot;
  tenant: CompiledTenant;
  keyId: string | null;
  /** the pattern an answer names (the tenant's, else the global one) */
  route: string | null;
  /** both resolved patterns: their limits apply together */
  routes: RouteResolution;
}

/** The compiled tenant, key and route of a query in this snapshot; 404 for a key the tenant does not have. */
export function resolveIn(
  snapshot: Snapshot | null,
  slugName: string,
  keyName: string | null,
  route: string | null,
): ResolvedCheck {
  const tenant = snapshot?.tenants[slugName];
  if (!snapshot || !tenant) throw new NotFoundError(`No tenant named ${slugName}.`);
  let keyId: string | null = null;
  if (keyName !== null) {
    const key = tenant.keys[keyName];
    if (!key) throw new NotFoundError(`Tenant ${slugName} has no key named ${keyName}.`);
    keyId = key.id;
  }
  const routes = resolveRoutes(snapshot, slugName, route);
  return { snapshot, tenant, keyId, route: shownRoute(routes), routes };
}

/** resolveIn the newest snapshot as saved (without temporary overrides: resets use it). */
export async function resolveCheck(
  slugName: string,
  keyName: string | null,
  route: string | null,
): Promise<ResolvedCheck> {
  return resolveIn(await latestSnapshot(), slugName, keyName, route);
}

/** The tenant's limits named `name` (a key's own among them) that apply where `check` landed. */
export function limitsAtCheck(
  check: ResolvedCheck,
  name: string,
  keyName: string | null,
  routed: boolean,
): CompiledLimit[] {
  const limits = limitsNamed(check.tenant, name, keyName);
  if (!routed) return limits;
  return limits.filter(
    (l) => l.route === null || l.route === check.routes.global || l.route === check.routes.tenant,
  );
}
