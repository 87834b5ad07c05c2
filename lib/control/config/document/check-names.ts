// Rules about names and references across the document: duplicates within one scope,
// the plan a tenant names, and the route a limit's `route:` field names. They read only
// names, so they also run on what parsed of a document that failed its schema.

import { parseRoutePattern, patternShapeKey } from "@/lib/check/routes/route-pattern";

import type { DocumentError } from "./document-error";
import type { DocumentRefs, LimitRef, RouteRef, Sparse } from "./document-refs";

/** The plans and global routes a document is read against (its own, else the current ones). */
export interface NameScope {
  plans: Sparse<{ name: string | null }>;
  routes: Sparse<{ pattern: string }>;
}

function duplicates<T>(
  items: Sparse<T>,
  keyOf: (item: T) => string | null,
  pathOf: (index: number) => string,
  describe: (item: T, first: T, firstPath: string) => string,
): DocumentError[] {
  const firstIndex = new Map<string, number>();
  const errors: DocumentError[] = [];
  items.forEach((item, index) => {
    // An entry or a name that could not be read duplicates nothing.
    const key = item === null ? null : keyOf(item);
    if (item === null || key === null) return;
    const seen = firstIndex.get(key);
    if (seen === undefined) firstIndex.set(key, index);
    // Point at the first entry itself ("plans[0]"), not at its name field.
    else
      errors.push({
        path: pathOf(index),
        message: describe(item, items[seen] as T, pathOf(seen).replace(/\.\w+$/, "")),
      });
  });
  return errors;
}

const shapeOf = (route: RouteRef): string => {
  const parsed = parseRoutePattern(route.pattern);
  return parsed.ok ? patternShapeKey(parsed.pattern) : route.pattern;
};

function duplicateRoutes(routes: Sparse<RouteRef>, base: string): DocumentError[] {
  return duplicates(
    routes,
    shapeOf,
    (i) => `${base}[${i}].pattern`,
    (route, first, firstPath) =>
      route.pattern === first.pattern
        ? `duplicate route pattern "${route.pattern}" (first at ${firstPath})`
        : `route pattern "${route.pattern}" matches exactly what "${first.pattern}" (${firstPath}) matches; keep one`,
  );
}

function duplicateLimits(limits: Sparse<LimitRef>, base: string): DocumentError[] {
  return duplicates(
    limits,
    (limit) => limit.name,
    (i) => `${base}[${i}].name`,
    (limit, _first, firstPath) =>
      `duplicate limit name "${limit.name}" (first at ${firstPath}); names are unique where limits are attached`,
  );
}

/** A limit declared under a route belongs to it; a different `route:` would contradict that. */
function routeFieldUnderRoute(route: RouteRef, base: string): DocumentError[] {
  return route.limits.flatMap((limit, i) =>
    limit?.route !== undefined && limit.route !== route.pattern
      ? [
          {
            path: `${base}.limits[${i}].route`,
            message: `a limit declared under route "${route.pattern}" applies to that route; remove this field`,
          },
        ]
      : [],
  );
}

function routeFields(
  limits: Sparse<LimitRef>,
  base: string,
  declared: ReadonlySet<string>,
  where: string,
): DocumentError[] {
  return limits.flatMap((limit, i) =>
    limit?.route !== undefined && !declared.has(limit.route)
      ? [
          {
            path: `${base}[${i}].route`,
            message: `no route "${limit.route}" is declared ${where}; declare it or fix the pattern`,
          },
        ]
      : [],
  );
}

export function checkNames(document: DocumentRefs, scope: NameScope): DocumentError[] {
  const plans = document.plans ?? [];
  const routes = document.routes ?? [];
  const tenants = document.tenants ?? [];
  const globalPatterns = new Set(scope.routes.flatMap((route) => (route ? [route.pattern] : [])));
  const planNames = scope.plans.flatMap((plan) => (plan?.name ? [plan.name] : []));
  const errors: DocumentError[] = [
    ...duplicates(
      plans,
      (p) => p.name,
      (i) => `plans[${i}].name`,
      (p, _f, at) => `duplicate plan name "${p.name}" (first at ${at})`,
    ),
    ...duplicates(
      tenants,
      (t) => t.slug,
      (i) => `tenants[${i}].slug`,
      (t, _f, at) => `duplicate tenant slug "${t.slug}" (first at ${at})`,
    ),
    ...duplicateRoutes(routes, "routes"),
  ];
  plans.forEach((plan, i) => {
    if (!plan) return;
    errors.push(...duplicateLimits(plan.limits, `plans[${i}].limits`));
    errors.push(
      ...routeFields(
        plan.limits,
        `plans[${i}].limits`,
        globalPatterns,
        "under the top-level routes (a plan limit can only name a global route)",
      ),
    );
  });
  routes.forEach((route, i) => {
    if (!route) return;
    errors.push(
      ...duplicateLimits(route.limits, `routes[${i}].limits`),
      ...routeFieldUnderRoute(route, `routes[${i}]`),
    );
  });
  tenants.forEach((tenant, t) => {
    if (!tenant) return;
    const base = `tenants[${t}]`;
    if (tenant.plan !== null && !planNames.includes(tenant.plan)) {
      const known = planNames.length > 0 ? `the plans are ${planNames.join(", ")}` : "no plans are declared";
      errors.push({ path: `${base}.plan`, message: `unknown plan "${tenant.plan}"; ${known}` });
    }
    const own = tenant.routes.flatMap((route) => (route ? [route.pattern] : []));
    const visible = new Set([...globalPatterns, ...own]);
    const where = "globally or for this tenant";
    errors.push(...duplicateRoutes(tenant.routes, `${base}.routes`));
    errors.push(
      ...duplicateLimits(tenant.limits, `${base}.limits`),
      ...routeFields(tenant.limits, `${base}.limits`, visible, where),
    );
    tenant.routes.forEach((route, r) => {
      if (!route) return;
      errors.push(
        ...duplicateLimits(route.limits, `${base}.routes[${r}].limits`),
        ...routeFieldUnderRoute(route, `${base}.routes[${r}]`),
      );
    });
    errors.push(
      ...duplicates(
        tenant.keys,
        (k) => k.name,
        (i) => `${base}.keys[${i}].name`,
        (k, _f, at) => `duplicate key name "${k.name}" (first at ${at})`,
      ),
    );
    tenant.keys.forEach((key, k) => {
      if (!key) return;
      const keyBase = `${base}.keys[${k}].limits`;
      errors.push(
        ...duplicateLimits(key.limits, keyBase),
        ...routeFields(key.limits, keyBase, visible, where),
      );
    });
  });
  return errors;
}
