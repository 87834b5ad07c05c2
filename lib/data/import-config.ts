import "server-only";
import { isOperator, hasRole, type Principal } from "@/lib/auth/principal";
import {
  readDocumentRefs,
  validateDocument,
  type ConfigDocument,
  type DocumentError,
} from "@/lib/config/document";
import { writePlan, writeRoutes, writeTenant } from "@/lib/data/apply-document";
import { canonicalPlan, canonicalRoutes, canonicalTenant, sameJson } from "@/lib/data/canonical";
import { runConfigChange, type Audit } from "@/lib/data/config-change";
import type { AuditInput } from "@/lib/data/audit";
import { documentCapErrors } from "@/lib/data/count-caps";
import { importScope, outsideScope } from "@/lib/data/import-scope";
import { ForbiddenError, NotFoundError, ValidationFailed } from "@/lib/data/errors";
import { checkAgainstDatabase, checkImposedOverrides } from "@/lib/data/import-checks";
import { missingKeyErrors } from "@/lib/data/missing-keys";
import { tenantFieldErrors } from "@/lib/data/tenant-field-rights";
import { readDocument, readIdMap } from "@/lib/data/read-document";
import { importOverrides } from "@/lib/data/override-docs";
import type { Tx } from "@/lib/data/tx";
import type { CheckedDocument } from "@/lib/data/document-text";

export interface ConfigChangeItem {
  action: "create" | "update" | "delete";
  target: "plan" | "route" | "tenant" | "override";
  name: string;
}

export interface ImportResult {
  configVersion: number | null;
  changes: ConfigChangeItem[];
}

export interface ImportOptions {
  prune?: boolean;
  requestId?: string | null;
  /** validate and compute the changes, then roll back: the dashboard's preview */
  dryRun?: boolean;
  /** one more audit entry when something changed (a rollback names the version it restores) */
  note?: AuditInput;
  /**
   * `input` as already validated (the document worker) and the plans and routes it was
   * validated against: taken as it is when those are unchanged, so a large document is not
   * validated a second time on the app's event loop
   */
  checked?: CheckedDocument;
}

class DryRunRollback extends Error {
  constructor(readonly changes: ConfigChangeItem[]) {
    super("dry run");
  }
}

// Import (docs/configuration.md): all-or-nothing. Everything is checked first; any error throws
// before a write, and the transaction makes a failure mid-write leave nothing behind.
export async function importConfig(
  principal: Principal,
  input: unknown,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const scope = importScope(input, options.prune ?? false);
  try {
    const outcome = await runConfigChange(
      principal,
      options.requestId ?? null,
      async (tx, audit) => {
        const current = await readDocument(tx);
        const checked = options.checked;
        const document = await validateFor(tx, principal, input, current, options.prune ?? false, checked);
        outsideScope(document, scope);
        const changes = await applyDocument(tx, document, current, options.prune ?? false, audit);
        // after the tenants and keys they name exist; the whole document compiles their limits
        if ((document.overrides ?? []).length > 0) {
          const whole: ConfigDocument = {
            plans: document.plans ?? current.plans,
            routes: document.routes ?? current.routes,
            tenants: mergedTenants(current, document),
            overrides: document.overrides,
          };
          for (const id of await importOverrides(tx, principal, whole, await readIdMap(tx), audit))
            changes.push({ action: "create", target: "override", name: id });
        }
        if (options.note && changes.length > 0) await audit(options.note);
        if (options.dryRun) throw new DryRunRollback(changes);
        return changes;
      },
      scope,
    );
    return { configVersion: outcome.configVersion, changes: outcome.result };
  } catch (error) {
    if (error instanceof DryRunRollback) return { configVersion: null, changes: error.changes };
    throw error;
  }
}

/** The current tenants with the document's in their place (a tenant-scoped import lists one). */
function mergedTenants(current: ConfigDocument, document: ConfigDocument): ConfigDocument["tenants"] {
  const listed = new Map((document.tenants ?? []).map((t) => [t.slug, t]));
  const kept = (current.tenants ?? []).map((t) => listed.get(t.slug) ?? t);
  const added = (document.tenants ?? []).filter(
    (t) => !(current.tenants ?? []).some((c) => c.slug === t.slug),
  );
  return [...kept, ...added];
}

const byPath = (a: DocumentError, b: DocumentError): number =>
  a.path.localeCompare(b.path, "en", { numeric: true });

async function validateFor(
  tx: Tx,
  principal: Principal,
  input: unknown,
  current: ConfigDocument,
  prune: boolean,
  checked?: CheckedDocument,
): Promise<ConfigDocument> {
  const result = stillValid(checked, current)
    ? { ok: true as const, document: checked.document }
    : validateDocument(input, { plans: current.plans, routes: current.routes });
  if (!result.ok) {
    // Every error in one answer: keys the document names are checked even on a bad shape.
    const keys = await missingKeyErrors(tx, principal, readDocumentRefs(input));
    throw new ValidationFailed([...result.errors, ...keys].sort(byPath));
  }
  const document = result.document;
  const errors: DocumentError[] = [...(await missingKeyErrors(tx, principal, document))];
  if (!isOperator(principal))
    errors.push(...(await tenantScopeErrors(tx, principal, document, current, prune)));
  errors.push(...documentCapErrors(document, current, prune));
  errors.push(...(await checkAgainstDatabase(tx, document, current, prune)));
  if (errors.length > 0) throw new ValidationFailed(errors);
  return document;
}

/** The document was validated against the plans and global routes the import writes over. */
function stillValid(
  checked: CheckedDocument | undefined,
  current: ConfigDocument,
): checked is CheckedDocument {
  if (!checked) return false;
  const { plans, routes } = checked.against;
  return sameJson(plans ?? [], current.plans ?? []) && sameJson(routes ?? [], current.routes ?? []);
}

async function tenantScopeErrors(
  tx: Tx,
  principal: Principal,
  document: ConfigDocument,
  current: ConfigDocument,
  prune: boolean,
): Promise<DocumentError[]> {
  const only = document.tenants?.length === 1 ? document.tenants[0] : undefined;
  if (!only || document.plans || document.routes || prune) {
    throw new ForbiddenError(
      "A tenant-scoped credential may import only a document holding just its own tenant.",
    );
  }
  const row = await tx.tenant.findUnique({ where: { slug: only.slug }, select: { id: true } });
  if (!row || !hasRole(principal, row.id, "viewer")) throw new NotFoundError(`No tenant named ${only.slug}.`);
  if (!hasRole(principal, row.id, "editor"))
    throw new ForbiddenError("Your role in this tenant cannot change its configuration.");
  const before = current.tenants?.find((t) => t.slug === only.slug);
  if (!before) throw new NotFoundError(`No tenant named ${only.slug}.`);
  return [
    ...tenantFieldErrors(principal, row.id, only, before),
    ...checkImposedOverrides(only, before, current),
  ];
}

async function applyDocument(
  tx: Tx,
  next: ConfigDocument,
  current: ConfigDocument,
  prune: boolean,
  audit: Audit,
): Promise<ConfigChangeItem[]> {
  const changes: ConfigChangeItem[] = [];
  const record = async (item: ConfigChangeItem, tenantId: string | null, before: unknown, after: unknown) => {
    changes.push(item);
    await audit({
      action: `${item.target}.${item.action}`,
      targetType: item.target,
      targetId: item.name,
      tenantId,
      before,
      after,
    });
  };
  const currentPlans = new Map((current.plans ?? []).map((p) => [p.name, canonicalPlan(p)]));
  for (const plan of (next.plans ?? []).map(canonicalPlan)) {
    const before = currentPlans.get(plan.name);
    if (before && sameJson(before, plan)) continue;
    await writePlan(tx, plan);
    await record(
      { action: before ? "update" : "create", target: "plan", name: plan.name },
      null,
      before ?? null,
      plan,
    );
  }
  if (next.routes) {
    const before = canonicalRoutes(current.routes ?? []);
    const after = canonicalRoutes(next.routes);
    if (!sameJson(before, after)) {
      await writeRoutes(tx, null, after);
      await record({ action: "update", target: "route", name: "global routes" }, null, before, after);
    }
  }
  const planIds = new Map(
    (await tx.plan.findMany({ select: { id: true, name: true } })).map((p) => [p.name, p.id]),
  );
  const currentTenants = new Map((current.tenants ?? []).map((t) => [t.slug, canonicalTenant(t)]));
  for (const tenant of (next.tenants ?? []).map(canonicalTenant)) {
    const before = currentTenants.get(tenant.slug);
    if (before && sameJson(before, tenant)) continue;
    const tenantId = await writeTenant(tx, tenant, planIds);
    await record(
      { action: before ? "update" : "create", target: "tenant", name: tenant.slug },
      tenantId,
      before ?? null,
      tenant,
    );
  }
  if (prune) {
    const listed = new Set((next.tenants ?? []).map((t) => t.slug));
    for (const [slug, before] of currentTenants) {
      if (listed.has(slug)) continue;
      const row = await tx.tenant.delete({ where: { slug } });
      await record({ action: "delete", target: "tenant", name: slug }, row.id, before, null);
    }
  }
  if (next.plans) {
    const kept = new Set(next.plans.map((p) => p.name));
    for (const [name, before] of currentPlans) {
      if (kept.has(name)) continue;
      await tx.plan.delete({ where: { name } });
      await record({ action: "delete", target: "plan", name }, null, before, null);
    }
  }
  return changes;
}
