// Who overrides whom (docs/configuration.md, "Where limits attach, and how they inherit"), shared by
// validation and the compiler so that both read the document the same way.
//
// A slot is one effective limit: its base declaration plus the overrides applied on top,
// in order. For one tenant:
//   - plan limits and global route limits are bases;
//   - a tenant route limit overrides the same-name limit of a global route with the same
//     pattern, else it is a base;
//   - a tenant limit overrides every visible limit with its name (plan and route limits;
//     a name can sit on several routes), else it is a new base;
//   - a key limit does the same on top of the tenant's slots, for that key only.

import { childPath } from "./document-error";
import type { PlanDoc, RouteDoc, TenantDoc } from "./document-schema";
import type { LimitDoc } from "./limit-schema";
import type { LimitOrigin } from "./limit-origin";
import { normalizeLimit, type LimitFields } from "./normalize-limit";

export interface LimitDeclaration {
  name: string;
  /** as written (keeps which spelling of a duration was used, for error paths) */
  written: LimitDoc;
  fields: LimitFields;
  /** "tenants[0].limits[1]" */
  path: string;
  origin: LimitOrigin;
}

export interface LimitSlot {
  name: string;
  /** the pattern a limit declared under a route applies to; null elsewhere */
  declaredRoute: string | null;
  /** chain[0] is the base; later entries override it field by field */
  chain: LimitDeclaration[];
}

export interface TenantInheritance {
  /** for the tenant itself, and for keys that declare no limits of their own */
  tenant: LimitSlot[];
  /** key name -> slots, for keys that declare limits */
  keys: Map<string, LimitSlot[]>;
}

/** The plans and global routes a tenant is read against, with their document paths. */
export interface InheritanceScope {
  plans: readonly PlanDoc[];
  routes: readonly RouteDoc[];
}

function declare(limit: LimitDoc, path: string, origin: LimitOrigin): LimitDeclaration {
  return { name: limit.name, written: limit, fields: normalizeLimit(limit), path, origin };
}

function newSlot(declaration: LimitDeclaration, declaredRoute: string | null): LimitSlot {
  return { name: declaration.name, declaredRoute, chain: [declaration] };
}

/** Appends to every same-name slot; a declaration with none becomes a new base slot. */
function applyOverride(slots: LimitSlot[], declaration: LimitDeclaration): void {
  const targets = slots.filter((slot) => slot.name === declaration.name);
  if (targets.length === 0) slots.push(newSlot(declaration, null));
  for (const slot of targets) slot.chain.push(declaration);
}

export function planSlots(plan: PlanDoc, planIndex: number): LimitSlot[] {
  return plan.limits.map((limit, index) =>
    newSlot(declare(limit, `plans[${planIndex}].limits[${index}]`, { level: "plan", plan: plan.name }), null),
  );
}

export function globalRouteSlots(routes: readonly RouteDoc[]): LimitSlot[] {
  return routes.flatMap((route, routeIndex) =>
    route.limits.map((limit, index) =>
      newSlot(
        declare(limit, `routes[${routeIndex}].limits[${index}]`, {
          level: "route",
          scope: "global",
          pattern: route.pattern,
        }),
        route.pattern,
      ),
    ),
  );
}

export function resolveTenantInheritance(
  scope: InheritanceScope,
  tenant: TenantDoc,
  tenantIndex: number,
): TenantInheritance {
  const tenantPath = `tenants[${tenantIndex}]`;
  const planIndex = scope.plans.findIndex((plan) => plan.name === tenant.plan);
  const plan = scope.plans[planIndex];
  const slots: LimitSlot[] = [...(plan ? planSlots(plan, planIndex) : []), ...globalRouteSlots(scope.routes)];

  tenant.routes.forEach((route, routeIndex) => {
    route.limits.forEach((limit, index) => {
      const origin: LimitOrigin = {
        level: "route",
        scope: "tenant",
        tenant: tenant.slug,
        pattern: route.pattern,
      };
      const declaration = declare(limit, `${tenantPath}.routes[${routeIndex}].limits[${index}]`, origin);
      const globalTwin = slots.find((slot) => {
        const base = slot.chain[0]?.origin;
        return (
          slot.name === limit.name &&
          base?.level === "route" &&
          base.scope === "global" &&
          slot.declaredRoute === route.pattern
        );
      });
      if (globalTwin) globalTwin.chain.push(declaration);
      else slots.push(newSlot(declaration, route.pattern));
    });
  });

  tenant.limits.forEach((limit, index) => {
    applyOverride(
      slots,
      declare(limit, childPath(`${tenantPath}.limits`, index), { level: "tenant", tenant: tenant.slug }),
    );
  });

  const keys = new Map<string, LimitSlot[]>();
  tenant.keys.forEach((key, keyIndex) => {
    if (key.limits.length === 0) return;
    const keySlots = slots.map((slot) => ({ ...slot, chain: [...slot.chain] }));
    key.limits.forEach((limit, index) => {
      const origin: LimitOrigin = { level: "key", tenant: tenant.slug, key: key.name };
      applyOverride(keySlots, declare(limit, `${tenantPath}.keys[${keyIndex}].limits[${index}]`, origin));
    });
    keys.set(key.name, keySlots);
  });

  return { tenant: slots, keys };
}
