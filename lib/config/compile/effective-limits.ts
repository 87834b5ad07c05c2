// Hot-path reads of a snapshot: which limits a check meets, and which route it resolves
// to. Everything was merged at compile time; these only pick and concatenate.

import { createRouteMatcher, type RouteMatcher } from "@/lib/config/routes/route-matcher";

import type { CompiledLimit, CompiledTenant, LimitSet, Snapshot } from "./snapshot-types";

const EMPTY: readonly CompiledLimit[] = Object.freeze([]);

/** The limit set of a check with this key (null: no key given). */
export function limitSetFor(tenant: CompiledTenant, keyName: string | null): LimitSet {
  if (keyName === null) return tenant.limits;
  return tenant.keys[keyName]?.limits ?? tenant.keyDefault;
}

/**
 * The effective limits of a check: those without a route plus those of the check's
 * resolved route pattern (resolve it with resolveRoute first). Unknown tenant: none.
 * A key name the snapshot does not know gets the tenant's keyDefault set.
 */
export function effectiveLimits(
  snapshot: Snapshot,
  tenantSlug: string,
  keyName: string | null,
  routePattern: string | null,
): CompiledLimit[] {
  const tenant = snapshot.tenants[tenantSlug];
  if (!tenant) return [];
  const set = limitSetFor(tenant, keyName);
  const routed = routePattern === null ? EMPTY : (set.routed[routePattern] ?? EMPTY);
  return routed.length === 0 ? set.unrouted.slice() : [...set.unrouted, ...routed];
}

// Matchers are built on first use and live as long as the snapshot object: a new snapshot
// (new version) brings new tenant objects and thus fresh matchers.
const tenantMatchers = new WeakMap<CompiledTenant, RouteMatcher>();
const globalMatchers = new WeakMap<Snapshot, RouteMatcher>();

function matcherFor(snapshot: Snapshot, tenant: CompiledTenant): RouteMatcher {
  if (tenant.routes.length === 0) {
    let shared = globalMatchers.get(snapshot);
    if (!shared) globalMatchers.set(snapshot, (shared = createRouteMatcher(snapshot.routes)));
    return shared;
  }
  let own = tenantMatchers.get(tenant);
  if (!own) tenantMatchers.set(tenant, (own = createRouteMatcher(snapshot.routes, tenant.routes)));
  return own;
}

/**
 * The pattern a check's route ("GET /v1/items/42?x=1") resolves to for this tenant
 * (global and the tenant's own routes), or null: unknown tenant, no match, no route.
 */
export function resolveRoute(
  snapshot: Snapshot,
  tenantSlug: string,
  route: string | null | undefined,
): string | null {
  if (!route) return null;
  const tenant = snapshot.tenants[tenantSlug];
  if (!tenant) return null;
  return matcherFor(snapshot, tenant).match(route);
}
