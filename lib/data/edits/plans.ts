import "server-only";
import type { Principal } from "@/lib/auth/principal";
import { ConflictError } from "@/lib/data/errors";
import type { ImportResult } from "@/lib/data/import-config";
import { importGlobal, readGlobalDoc } from "@/lib/data/edits/document-edit";

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
