import "server-only";
import type { ConfigDocument, DocumentError, TenantDoc } from "@/lib/control/config/document";
import { canonicalLimits, sameJson } from "@/lib/control/config/import/canonical";

// What a tenant-scoped principal may not change in its tenant: the limits its plan and the
// global routes impose, and overrides of them (an operator's), in an import or a bulk edit.

/** Names a tenant-scoped principal may not override or change: the plan's and global routes' limits. */
function imposedNames(current: ConfigDocument, planName: string): Set<string> {
  const plan = current.plans?.find((p) => p.name === planName);
  const names = new Set(plan?.limits.map((l) => l.name) ?? []);
  for (const route of current.routes ?? []) for (const limit of route.limits) names.add(limit.name);
  return names;
}

export function checkImposedOverrides(
  next: TenantDoc,
  current: TenantDoc,
  currentDoc: ConfigDocument,
): DocumentError[] {
  const imposed = imposedNames(currentDoc, current.plan);
  const errors: DocumentError[] = [];
  const compare = (path: string, nextLimits: TenantDoc["limits"], currentLimits: TenantDoc["limits"]) => {
    const before = new Map(canonicalLimits(currentLimits).map((l) => [l.name, l]));
    canonicalLimits(nextLimits).forEach((limit, i) => {
      if (imposed.has(limit.name) && !sameJson(limit, before.get(limit.name))) {
        errors.push({
          path: `${path}[${i}]`,
          message: `${limit.name} is imposed by the plan or a global route; only an operator can override it`,
        });
      }
    });
    for (const name of before.keys()) {
      if (imposed.has(name) && !nextLimits.some((l) => l.name === name)) {
        errors.push({
          path,
          message: `the override of ${name} is an operator's; only an operator can remove it`,
        });
      }
    }
  };
  compare("tenants[0].limits", next.limits, current.limits);
  // A tenant route limit named like a limit of the global route with the same pattern
  // overrides it (lib/control/config/document/inheritance.ts): that too is an operator's.
  const globalNames = (pattern: string): Set<string> =>
    new Set(currentDoc.routes?.find((r) => r.pattern === pattern)?.limits.map((l) => l.name) ?? []);
  next.routes.forEach((route, r) => {
    const twins = globalNames(route.pattern);
    const own = (limits: TenantDoc["limits"]) => limits.filter((l) => twins.has(l.name));
    const beforeRoute = current.routes.find((c) => c.pattern === route.pattern);
    if (!sameJson(canonicalLimits(own(route.limits)), canonicalLimits(own(beforeRoute?.limits ?? [])))) {
      errors.push({
        path: `tenants[0].routes[${r}].limits`,
        message: `the global route ${route.pattern} imposes ${[...twins].join(", ")}; only an operator can override those here`,
      });
    }
  });
  for (const route of current.routes) {
    const twins = globalNames(route.pattern);
    if (
      !next.routes.some((n) => n.pattern === route.pattern) &&
      route.limits.some((l) => twins.has(l.name))
    ) {
      errors.push({
        path: "tenants[0].routes",
        message: `the override on ${route.pattern} of a global route's limit is an operator's; only an operator can remove it`,
      });
    }
  }
  next.keys.forEach((key, k) =>
    compare(
      `tenants[0].keys[${k}].limits`,
      key.limits,
      current.keys.find((c) => c.name === key.name)?.limits ?? [],
    ),
  );
  return errors;
}
