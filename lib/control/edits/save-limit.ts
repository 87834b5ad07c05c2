import "server-only";
import type { Principal } from "@/lib/shared/principal";
import type { LimitDoc, TenantDoc } from "@/lib/control/config/document";
import { ConflictError, NotFoundError, ValidationFailed } from "@/lib/control/errors/errors";
import type { ImportResult } from "@/lib/control/data/import-config";
import {
  importGlobal,
  importTenant,
  readGlobalDoc,
  readTenantDoc,
} from "@/lib/control/data/edits/document-edit";
import type { LimitTarget } from "@/lib/control/edits/limit-target";

// Add, change or remove one limit wherever it is declared. Errors from the import keep
// their document paths; `fieldPath` says which prefix is this limit's, so the editor can
// put each message under its field.

export interface LimitEdit {
  /** null: a new limit */
  originalName: string | null;
  /** null: delete originalName */
  limit: LimitDoc | null;
}

export interface SavedLimit extends ImportResult {
  fieldPath: string;
}

/** Returns the new list and the index of the edited limit (-1 when deleted). */
function edited(list: readonly LimitDoc[], edit: LimitEdit): { limits: LimitDoc[]; index: number } {
  const at = edit.originalName === null ? -1 : list.findIndex((l) => l.name === edit.originalName);
  if (edit.originalName !== null && at < 0)
    throw new NotFoundError(`No limit named ${edit.originalName} there.`);
  const next = edit.limit;
  if (next && list.some((l, i) => l.name === next.name && i !== at))
    throw new ConflictError(`A limit named ${next.name} is already declared there.`, "name");
  if (!next) return { limits: list.filter((_, i) => i !== at), index: -1 };
  if (at < 0) return { limits: [...list, next], index: list.length };
  return { limits: list.map((l, i) => (i === at ? next : l)), index: at };
}

function inTenant(doc: TenantDoc, target: LimitTarget, edit: LimitEdit): { doc: TenantDoc; path: string } {
  if (target.kind === "tenant") {
    const { limits, index } = edited(doc.limits, edit);
    return { doc: { ...doc, limits }, path: `tenants[0].limits[${index}]` };
  }
  if (target.kind === "tenant-route") {
    const r = doc.routes.findIndex((route) => route.pattern === target.pattern);
    if (r < 0) throw new NotFoundError(`Tenant ${doc.slug} has no route ${target.pattern}.`);
    const { limits, index } = edited(doc.routes[r]?.limits ?? [], edit);
    const routes = doc.routes.map((route, i) => (i === r ? { ...route, limits } : route));
    return { doc: { ...doc, routes }, path: `tenants[0].routes[${r}].limits[${index}]` };
  }
  if (target.kind !== "key") throw new Error("not a tenant target");
  const k = doc.keys.findIndex((key) => key.name === target.key);
  const { limits, index } = edited(k < 0 ? [] : (doc.keys[k]?.limits ?? []), edit);
  const keys =
    k < 0
      ? [...doc.keys, { name: target.key, limits }]
      : doc.keys.map((key, i) => (i === k ? { ...key, limits } : key));
  const position = k < 0 ? doc.keys.length : k;
  return {
    doc: { ...doc, keys: keys.filter((key) => key.limits.length > 0) },
    path: `tenants[0].keys[${position}].limits[${index}]`,
  };
}

export async function saveLimit(
  principal: Principal,
  target: LimitTarget,
  edit: LimitEdit,
): Promise<SavedLimit> {
  if (target.kind === "plan" || target.kind === "global-route") {
    const global = await readGlobalDoc(principal);
    if (target.kind === "plan") {
      const p = global.plans.findIndex((plan) => plan.name === target.plan);
      if (p < 0) throw new NotFoundError(`No plan named ${target.plan}.`);
      const { limits, index } = edited(global.plans[p]?.limits ?? [], edit);
      const plans = global.plans.map((plan, i) => (i === p ? { ...plan, limits } : plan));
      return withPath(() => importGlobal(principal, { plans }), `plans[${p}].limits[${index}]`);
    }
    const r = global.routes.findIndex((route) => route.pattern === target.pattern);
    if (r < 0) throw new NotFoundError(`No global route ${target.pattern}.`);
    const { limits, index } = edited(global.routes[r]?.limits ?? [], edit);
    const routes = global.routes.map((route, i) => (i === r ? { ...route, limits } : route));
    return withPath(() => importGlobal(principal, { routes }), `routes[${r}].limits[${index}]`);
  }
  const current = await readTenantDoc(principal, target.tenant, "editor");
  const { doc, path } = inTenant(current, target, edit);
  return withPath(() => importTenant(principal, doc), path);
}

/** Import errors plus the path prefix of the edited limit, for field-level messages. */
export class LimitValidationFailed extends ValidationFailed {
  constructor(
    source: ValidationFailed,
    readonly fieldPath: string,
  ) {
    super(source.errors);
  }
}

async function withPath(run: () => Promise<ImportResult>, fieldPath: string): Promise<SavedLimit> {
  try {
    return { ...(await run()), fieldPath };
  } catch (error) {
    throw error instanceof ValidationFailed ? new LimitValidationFailed(error, fieldPath) : error;
  }
}
