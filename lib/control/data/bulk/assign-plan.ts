import "server-only";
import { isOperator, type Principal } from "@/lib/shared/principal";
import { validateDocument, type DocumentError } from "@/lib/control/config/document";
import { runTenantChange } from "@/lib/control/data/config-change";
import { ForbiddenError } from "@/lib/control/errors/errors";
import { readDocument } from "@/lib/control/data/read-document";
import { lookUpTenants, throwIfAny } from "@/lib/control/data/bulk/bulk-targets";
import type { PlanAssignmentInput } from "@/lib/control/bulk/bulk-inputs";

// Moving many tenants to one plan (an operator's act, as a tenant's plan is in an import):
// one change locking only the listed tenants, one audit entry per tenant that moves, one
// config version, none at all when every tenant is already on the plan. Each moved
// tenant's configuration is validated against its new plan first: an override of a limit
// the new plan lacks must not reach the compiler.

export interface PlanAssignmentResult {
  configVersion: number | null;
  /** slugs that moved to the plan, in the order given */
  moved: string[];
  /** slugs already on it */
  unchanged: string[];
}

/** `tenants[3].limits[0].window` of the validated document -> `tenants[<index given>]`. */
function remap(error: DocumentError, slugs: readonly string[], indexOf: ReadonlyMap<string, number>) {
  const match = /^tenants\[(\d+)\]\.?(.*)$/.exec(error.path);
  const slug = match ? slugs[Number(match[1])] : undefined;
  if (!match || slug === undefined) return error;
  const rest = match[2] ? `${match[2]}: ` : "";
  return {
    path: `tenants[${indexOf.get(slug) ?? 0}]`,
    message: `on that plan tenant ${slug} would be invalid: ${rest}${error.message}`,
  };
}

export async function assignPlan(
  principal: Principal,
  input: PlanAssignmentInput,
  requestId: string | null = null,
): Promise<PlanAssignmentResult> {
  if (!isOperator(principal)) throw new ForbiddenError("Only an operator can change a tenant's plan.");
  const outcome = await runTenantChange(input.tenants, principal, requestId, async (tx, audit) => {
    // The plan is global configuration: a change of tenants holds the global lock shared,
    // so no plan can be removed while this runs.
    const plan = await tx.plan.findUnique({ where: { name: input.plan }, select: { id: true } });
    const planError: DocumentError[] = plan ? [] : [{ path: "plan", message: `no plan named ${input.plan}` }];
    const { found: tenants, errors } = await lookUpTenants(tx, principal, input.tenants);
    throwIfAny([...planError, ...errors]);
    if (!plan) throw new Error("unreachable: the plan was checked");
    const moving = tenants.filter((tenant) => tenant.planId !== plan.id);
    const unchanged = tenants.filter((tenant) => tenant.planId === plan.id).map((t) => t.slug);
    if (moving.length === 0) return { moved: [], unchanged };

    const current = await readDocument(
      tx,
      moving.map((tenant) => tenant.id),
    );
    const docs = current.tenants ?? [];
    const result = validateDocument(
      { tenants: docs.map((doc) => ({ ...doc, plan: input.plan })) },
      { plans: current.plans, routes: current.routes },
    );
    if (!result.ok) {
      const indexOf = new Map(input.tenants.map((slug, i) => [slug, i]));
      const slugs = docs.map((doc) => doc.slug);
      throwIfAny(result.errors.map((error) => remap(error, slugs, indexOf)));
    }

    await tx.tenant.updateMany({
      where: { id: { in: moving.map((tenant) => tenant.id) } },
      data: { planId: plan.id },
    });
    const planOf = new Map(docs.map((doc) => [doc.slug, doc.plan]));
    for (const tenant of moving) {
      await audit({
        action: "tenant.plan",
        targetType: "tenant",
        targetId: tenant.slug,
        tenantId: tenant.id,
        before: { plan: planOf.get(tenant.slug) ?? null },
        after: { plan: input.plan },
      });
    }
    return { moved: moving.map((tenant) => tenant.slug), unchanged };
  });
  return { configVersion: outcome.configVersion, ...outcome.result };
}
