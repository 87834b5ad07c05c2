import "server-only";
import type { Principal } from "@/lib/shared/principal";
import type { ConfigDocument } from "@/lib/control/config/document";
import { writePlan, writeRoutes } from "@/lib/control/data/apply-document";
import {
  canonicalPlan,
  canonicalRoutes,
  canonicalTenant,
  sameJson,
} from "@/lib/control/config/import/canonical";
import { runConfigChange } from "@/lib/control/data/config-change";
import type { Audit, AuditInput } from "@/lib/control/data/audit";
import { importScope, outsideScope } from "@/lib/control/config/import/import-scope";
import { createKeys, type ImportedKey } from "@/lib/control/data/import-keys";
import { readBase } from "@/lib/control/data/import-state";
import { validateImport, type ValidImport } from "@/lib/control/data/import-validate";
import { readIdMap } from "@/lib/control/data/read-document";
import { importOverrides } from "@/lib/control/data/override-docs";
import { writeTenantParts, writeTenantRows } from "@/lib/control/data/write-tenants";
import type { Tx } from "@/lib/control/data/tx";
import { readGlobalLists, writeGlobalLists } from "@/lib/control/data/global-lists";
import type { CheckedDocument } from "@/lib/control/data/document-text";

export type { ImportedKey } from "@/lib/control/data/import-keys";

export interface ConfigChangeItem {
  action: "create" | "update" | "delete";
  target: "plan" | "route" | "tenant" | "key" | "override" | "lists";
  name: string;
}

export interface ImportResult {
  configVersion: number | null;
  changes: ConfigChangeItem[];
  /** keys the import made, with their secrets (shown only here); a dry run: names only */
  createdKeys: ImportedKey[];
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
  /**
   * more work in the same change, run first under its locks (a rollback's overrides and
   * alert rules, a revert's check that nothing moved since it read); returns how many
   * things it changed, so the note is written when only these changed
   */
  within?: (tx: Tx, audit: Audit) => Promise<number>;
}

class DryRunRollback extends Error {
  constructor(readonly result: Omit<ImportResult, "configVersion">) {
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
        const alongside = options.within ? await options.within(tx, audit) : 0;
        const base = await readBase(tx);
        const prune = options.prune ?? false;
        const valid = await validateImport(tx, principal, input, base, prune, options.checked);
        const { document, state } = valid;
        outsideScope(document, scope);
        const { changes, createdKeys } = await applyDocument(tx, valid, prune, audit);
        // after the tenants and keys they name exist; the whole document compiles their limits
        if ((document.overrides ?? []).length > 0) {
          const current = state.current; // whole: read so because the document has overrides
          const whole: ConfigDocument = {
            plans: document.plans ?? current.plans,
            routes: document.routes ?? current.routes,
            tenants: mergedTenants(current, document),
            overrides: document.overrides,
          };
          for (const id of await importOverrides(tx, principal, whole, await readIdMap(tx), audit))
            changes.push({ action: "create", target: "override", name: id });
        }
        if (options.note && changes.length + alongside > 0) await audit(options.note);
        // the secrets and ids of keys that will not exist are not shown
        const planned = createdKeys.map(({ tenant, name }) => ({ tenant, name }));
        if (options.dryRun) throw new DryRunRollback({ changes, createdKeys: planned });
        return { changes, createdKeys };
      },
      scope,
    );
    return { configVersion: outcome.configVersion, ...outcome.result };
  } catch (error) {
    if (error instanceof DryRunRollback) return { configVersion: null, ...error.result };
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

async function applyDocument(
  tx: Tx,
  { document: next, state, keys }: ValidImport,
  prune: boolean,
  audit: Audit,
): Promise<{ changes: ConfigChangeItem[]; createdKeys: ImportedKey[] }> {
  const current = state.current;
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
  if (next.lists) {
    // the operator's global lists: exactly what the document says (validateImport let only operators)
    const before = (await readGlobalLists(tx)) ?? { deny: [], allow: [] };
    if (!sameJson(before, next.lists)) {
      await writeGlobalLists(tx, next.lists);
      await record({ action: "update", target: "lists", name: "global lists" }, null, before, next.lists);
    }
  }
  const planIds = new Map(
    (await tx.plan.findMany({ select: { id: true, name: true } })).map((p) => [p.name, p.id]),
  );
  const currentTenants = new Map((current.tenants ?? []).map((t) => [t.slug, canonicalTenant(t)]));
  const changed = (next.tenants ?? [])
    .map(canonicalTenant)
    .filter((tenant) => !sameJson(currentTenants.get(tenant.slug) ?? null, tenant));
  const written = await writeTenantRows(tx, changed, state.tenantIds, planIds);
  for (const tenant of changed) {
    const before = currentTenants.get(tenant.slug);
    await record(
      { action: before ? "update" : "create", target: "tenant", name: tenant.slug },
      written.get(tenant.slug) ?? null,
      before ?? null,
      tenant,
    );
  }
  // keys before their limits; a bare key on an unchanged tenant is made all the same
  const createdKeys = await createKeys(tx, keys.wanted, new Map([...state.tenantIds, ...written]), audit);
  for (const key of createdKeys)
    changes.push({ action: "create", target: "key", name: `${key.tenant}/${key.name}` });
  await writeTenantParts(tx, changed, written);
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
  return { changes, createdKeys };
}
