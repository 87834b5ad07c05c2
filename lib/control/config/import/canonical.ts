import "server-only";
import type { LimitDoc, PlanDoc, RouteDoc, TenantDoc } from "@/lib/control/config/document";
import { resolveServiceLimit } from "@/lib/check/published/service-limit-schema";
import { limitColumns, limitOfColumns } from "@/lib/control/config/import/limit-columns";
import { DEFAULT_HEADER_FLAVOUR } from "@/lib/shared/config-terms";
import { DEFAULT_TIME_ZONE } from "@/lib/shared/calendar";

// One spelling of each part of a document (durations formatted, defaults filled, as stored), so an
// import can tell what really changes and audit entries show readable before/after.

/**
 * Routes in one order on both sides of a comparison, by code point: the database lists them
 * in its collation's order and localeCompare in ICU's, which differ (C puts "/B" before
 * "/a"), and an unchanged export must compare equal.
 */
export function canonicalRoutes(routes: readonly RouteDoc[]): RouteDoc[] {
  return [...routes].sort((a, b) => byCodePoint(a.pattern, b.pattern)).map(canonicalRoute);
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function canonicalLimits(limits: readonly LimitDoc[]): LimitDoc[] {
  return limits.map((limit, index) => limitOfColumns(limitColumns(limit, index)));
}

export function canonicalRoute(route: RouteDoc): RouteDoc {
  return { pattern: route.pattern, limits: canonicalLimits(route.limits) };
}

export function canonicalPlan(plan: PlanDoc): PlanDoc {
  const service = resolveServiceLimit(plan.service);
  return { name: plan.name, limits: canonicalLimits(plan.limits), ...(service ? { service } : {}) };
}

export function canonicalTenant(tenant: TenantDoc): TenantDoc {
  return {
    slug: tenant.slug,
    name: tenant.name ?? tenant.slug,
    plan: tenant.plan,
    status: tenant.status,
    // the default flavour, said or not, is the same tenant
    ...(tenant.headers !== undefined && tenant.headers !== DEFAULT_HEADER_FLAVOUR
      ? { headers: tenant.headers }
      : {}),
    // empty lists, said or not, are no lists
    ...(tenant.lists !== undefined && (tenant.lists.deny.length > 0 || tenant.lists.allow.length > 0)
      ? { lists: tenant.lists }
      : {}),
    ...(tenant.ipSubjects !== undefined ? { ipSubjects: tenant.ipSubjects } : {}),
    // UTC, said or not, is the same tenant
    ...(tenant.timeZone !== undefined && tenant.timeZone !== DEFAULT_TIME_ZONE
      ? { timeZone: tenant.timeZone }
      : {}),
    limits: canonicalLimits(tenant.limits),
    routes: canonicalRoutes(tenant.routes),
    keys: tenant.keys
      .filter((key) => key.limits.length > 0)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((key) => ({ name: key.name, limits: canonicalLimits(key.limits) })),
  };
}

export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
