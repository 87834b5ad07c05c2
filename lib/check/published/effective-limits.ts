// Hot-path reads of a snapshot: which limits a check meets, and which routes it resolves
// to. Everything was merged at compile time; these only pick and concatenate.

import { createRouteMatcher, type RouteMatcher } from "@/lib/check/routes/route-matcher";

import type { CompiledLimit, CompiledTenant, LimitSet, Snapshot } from "./snapshot-types";

const EMPTY: readonly CompiledLimit[] = Object.freeze([]);

/** The limit set of a check with this key (null: no key given). */
export function limitSetFor(tenant: CompiledTenant, keyName: string | null): LimitSet {
  if (keyName === null) return tenant.limits;
  return tenant.keys[keyName]?.limits ?? tenant.keyDefault;
}

/**
 * Where a check's route resolves (docs/configuration.md): the most specific global pattern and the
 * most specific pattern among the tenant's own routes, found separately. Both apply, so a
 * tenant's route can add limits but never hide a global route's (an operator's) limits.
 */
export interface RouteResolution {
  global: string | null;
  tenant: string | null;
}

export const NO_ROUTE: RouteResolution = Object.freeze({ global: null, tenant: null });

/** The pattern a check's answer names: the tenant's when one matched, else the global one. */
export function shownRoute(routes: RouteResolution): string | null {
  return routes.tenant ?? routes.global;
}

/**
 * The effective limits of a check: those without a route plus those of both resolved
 * patterns (resolve them with resolveRoutes first). Unknown tenant: none.
 * A key name the snapshot does not know gets the tenant's keyDefault set.
 */
export function effectiveLimits(
  snapshot: Snapshot,
  tenantSlug: string,
  keyName: string | null,
  routes: RouteResolution | null,
): CompiledLimit[] {
  const tenant = snapshot.tenants[tenantSlug];
  if (!tenant) return [];
  return effectiveLimitsOf(tenant, keyName, routes);
}

/** effectiveLimits for a tenant object (a subject override's variant of the tenant, too). */
export function effectiveLimitsOf(
  tenant: CompiledTenant,
  keyName: string | null,
  routes: RouteResolution | null,
): CompiledLimit[] {
  const set = limitSetFor(tenant, keyName);
  const globalPattern = routes?.global ?? null;
  const tenantPattern = routes?.tenant ?? null;
  const fromGlobal = globalPattern === null ? EMPTY : (set.routed[globalPattern] ?? EMPTY);
  // The same pattern text declared in both scopes keys one entry of `routed`: take it once.
  const fromTenant =
    tenantPattern === null || tenantPattern === globalPattern ? EMPTY : (set.routed[tenantPattern] ?? EMPTY);
  if (fromGlobal.length === 0 && fromTenant.length === 0) return set.unrouted.slice();
  return [...set.unrouted, ...fromGlobal, ...fromTenant];
}

// Matchers are built on first use and live as long as what they match: a changed tenant
// is a new tenant object, changed global routes a new routes array (servers apply changes
// to one snapshot object in place: config-state.ts), and so each gets a fresh matcher.
// Global and tenant routes are matched apart (a tenant's pattern never shadows a global one).
const tenantMatchers = new WeakMap<CompiledTenant, RouteMatcher>();
const globalMatchers = new WeakMap<readonly string[], RouteMatcher>();

function globalMatcher(snapshot: Snapshot): RouteMatcher {
  let shared = globalMatchers.get(snapshot.routes);
  if (!shared) globalMatchers.set(snapshot.routes, (shared = createRouteMatcher(snapshot.routes)));
  return shared;
}

function tenantMatcher(tenant: CompiledTenant): RouteMatcher {
  let own = tenantMatchers.get(tenant);
  if (!own) tenantMatchers.set(tenant, (own = createRouteMatcher([], tenant.routes)));
  return own;
}

/**
 * The patterns a check's route ("GET /v1/items/42?x=1") resolves to for this tenant, one
 * among the global routes and one among the tenant's; NO_ROUTE for an unknown tenant or
 * no route.
 */
export function resolveRoutes(
  snapshot: Snapshot,
  tenantSlug: string,
  route: string | null | undefined,
): RouteResolution {
  if (!route) return NO_ROUTE;
  const tenant = snapshot.tenants[tenantSlug];
  if (!tenant) return NO_ROUTE;
  const global = snapshot.routes.length === 0 ? null : globalMatcher(snapshot).match(route);
  const own = tenant.routes.length === 0 ? null : tenantMatcher(tenant).match(route);
  return global === null && own === null ? NO_ROUTE : { global, tenant: own };
}

/** The pattern an answer names for this route (shownRoute of resolveRoutes), or null. */
export function resolveRoute(
  snapshot: Snapshot,
  tenantSlug: string,
  route: string | null | undefined,
): string | null {
  return shownRoute(resolveRoutes(snapshot, tenantSlug, route));
}
