import "server-only";
import type { Principal } from "@/lib/shared/principal";
import type { ServiceLimitDoc } from "@/lib/check/published/service-limit-schema";
import { ConflictError, NotFoundError } from "@/lib/control/errors/errors";
import type { ImportResult } from "@/lib/control/data/import-config";
import { importGlobal, readGlobalDoc } from "@/lib/control/data/edits/document-edit";

// Plans are whole-list imports: the document's plans become exactly the plans, so a plan
// still in use cannot be removed (importConfig says which tenants use it).

export async function createPlan(principal: Principal, name: string): Promise<ImportResult> {
  const { plans } = await readGlobalDoc(principal);
  if (plans.some((p) => p.name === name))
    throw new ConflictError(`A plan named ${name} already exists.`, "name");
  return importGlobal(principal, { plans: [...plans, { name, limits: [] }] });
}

export async function removePlan(principal: Principal, name: string): Promise<ImportResult> {
  const { plans } = await readGlobalDoc(principal);
  return importGlobal(principal, { plans: plans.filter((p) => p.name !== name) });
}

/** Sets the plan's service limit (null: none), keeping its limits as they are. */
export async function setPlanService(
  principal: Principal,
  name: string,
  service: ServiceLimitDoc | null,
): Promise<ImportResult> {
  const { plans } = await readGlobalDoc(principal);
  const plan = plans.find((p) => p.name === name);
  if (!plan) throw new NotFoundError(`No plan named ${name}.`);
  const { service: _previous, ...rest } = plan;
  const next = service ? { ...rest, service } : rest;
  return importGlobal(principal, { plans: plans.map((p) => (p === plan ? next : p)) });
}
