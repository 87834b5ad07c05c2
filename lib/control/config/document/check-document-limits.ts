// Runs the limit rules (check-limits.ts) over every place limits live: each plan and the
// global routes on their own (they may be used by no tenant yet), then each tenant with
// its keys as inheritance resolves them.

import { checkSlots } from "./check-limits";
import type { DocumentError } from "./document-error";
import type { ConfigDocument } from "./document-schema";
import { globalRouteSlots, planSlots, resolveTenantInheritance, type InheritanceScope } from "./inheritance";

export function checkLimitsOf(document: ConfigDocument, scope: InheritanceScope): DocumentError[] {
  const errors: DocumentError[] = [];
  (document.plans ?? []).forEach((plan, index) => errors.push(...checkSlots(planSlots(plan, index), true)));
  errors.push(...checkSlots(globalRouteSlots(document.routes ?? []), true));
  (document.tenants ?? []).forEach((tenant, index) => {
    const planKnown = scope.plans.some((plan) => plan.name === tenant.plan);
    const inheritance = resolveTenantInheritance(scope, tenant, index);
    errors.push(...checkSlots(inheritance.tenant, planKnown));
    for (const keySlots of inheritance.keys.values()) errors.push(...checkSlots(keySlots, planKnown));
  });
  return errors;
}
