import "server-only";
import { isOperator, type Principal } from "@/lib/shared/principal";
import {
  validateDocument,
  type DocumentError,
  type LimitDoc,
  type TenantDoc,
} from "@/lib/control/config/document";
import { canonicalLimits } from "@/lib/control/config/import/canonical";
import { runTenantChange } from "@/lib/control/data/config-change";
import { countCaps } from "@/lib/control/config/import/count-caps";
import { checkImposedOverrides } from "@/lib/control/config/import/imposed-overrides";
import { readDocument } from "@/lib/control/data/read-document";
import type { Tx } from "@/lib/control/data/tx";
import type { BulkLimitInput } from "@/lib/control/bulk/bulk-inputs";
import { throwIfAny } from "@/lib/control/data/bulk/bulk-targets";
import { findTargets } from "@/lib/control/data/bulk/find-limit-targets";
import {
  isWithin,
  requestErrors,
  sameLimit,
  tenantLimitCount,
  withLimit,
  type LimitTarget,
} from "@/lib/control/bulk/limit-targets";
import { writeLimit } from "@/lib/control/data/bulk/write-limit";

// One limit added to (or replacing the one of its name on) many tenants, or many keys of
// one tenant: one change locking only those tenants, one config version, one audit entry
// per target that changes. Checked as an import checks the same edit, all before the first
// write: the document rules with the plans and global routes (an override of a plan limit
// may be partial, a new limit may not), a member's rights (the limits a plan or global
// route imposes are an operator's) and the count caps.

export interface BulkLimitResult {
  configVersion: number | null;
  /** labels of the targets ("tenant acme", "key backend of tenant acme") by outcome */
  created: string[];
  updated: string[];
  unchanged: string[];
}

/** Each tenant's document with the limit set on its targets; the targets learn where it sits. */
function editedDocs(docs: readonly TenantDoc[], targets: LimitTarget[], limit: LimitDoc): TenantDoc[] {
  return docs.map((doc) => {
    const mine = targets.filter((t) => t.slug === doc.slug);
    const tenantTarget = mine.find((t) => !t.key);
    let next: TenantDoc = doc;
    if (tenantTarget) {
      const { limits, index } = withLimit(doc.limits, limit);
      tenantTarget.before = doc.limits.find((l) => l.name === limit.name);
      tenantTarget.docPath = `limits[${index}]`;
      next = { ...next, limits };
    }
    const keys = [...next.keys];
    for (const target of mine) {
      if (!target.key) continue;
      const name = target.key.name;
      let k = keys.findIndex((key) => key.name === name);
      if (k < 0) k = keys.push({ name, limits: [] }) - 1;
      const current = keys[k]?.limits ?? [];
      const { limits, index } = withLimit(current, limit);
      target.before = current.find((l) => l.name === limit.name);
      target.docPath = `keys[${k}].limits[${index}]`;
      keys[k] = { name, limits };
    }
    return { ...next, keys };
  });
}

function capErrors(
  docs: readonly TenantDoc[],
  targets: readonly LimitTarget[],
  total: number,
  tenantPath: (slug: string) => string,
): DocumentError[] {
  const caps = countCaps();
  const errors: DocumentError[] = [];
  for (const doc of docs) {
    const count = tenantLimitCount(doc);
    if (count > caps.limitsPerTenant)
      errors.push({
        path: tenantPath(doc.slug),
        message: `tenant ${doc.slug} would have ${count} limits (its own, its routes' and its keys'); at most ${caps.limitsPerTenant} (SLUICE_MAX_LIMITS_PER_TENANT)`,
      });
  }
  const added = targets.filter((t) => t.before === undefined).length;
  if (total + added > caps.limitsTotal)
    errors.push({
      path: targets[0]?.key ? "keys" : "tenants",
      message: `the configuration would hold ${total + added} limits; at most ${caps.limitsTotal} in all (SLUICE_MAX_LIMITS_TOTAL)`,
    });
  return errors;
}

async function check(
  tx: Tx,
  principal: Principal,
  input: BulkLimitInput,
  targets: LimitTarget[],
): Promise<TenantDoc[]> {
  const current = await readDocument(tx, [...new Set(targets.map((t) => t.tenantId))]);
  const before = current.tenants ?? [];
  const next = editedDocs(before, targets, input.limit);
  const byTenant = new Map<string, LimitTarget[]>();
  for (const target of targets) byTenant.set(target.slug, [...(byTenant.get(target.slug) ?? []), target]);
  const tenantPath = (slug: string): string =>
    input.tenants ? (byTenant.get(slug)?.[0]?.path ?? "tenants") : "tenant";
  const atIndex = (path: string) => {
    const match = /^tenants\[(\d+)\]/.exec(path);
    const slug = match ? next[Number(match[1])]?.slug : undefined;
    return match && slug ? { slug, prefix: match[0] } : null;
  };
  const result = validateDocument({ tenants: next }, { plans: current.plans, routes: current.routes });
  if (!result.ok) throwIfAny(requestErrors(result.errors, byTenant, atIndex, tenantPath));
  const errors: DocumentError[] = [];
  if (!isOperator(principal)) {
    next.forEach((doc, j) => {
      const was = before[j];
      if (!was) return;
      for (const error of checkImposedOverrides(doc, was, current)) {
        const inTenant = error.path.replace(/^tenants\[0\]\.?/, "");
        const target = byTenant.get(doc.slug)?.find((t) => isWithin(inTenant, t.docPath));
        errors.push({
          path: target?.path ?? tenantPath(doc.slug),
          message: `${target?.label ?? `tenant ${doc.slug}`}: ${error.message}`,
        });
      }
    });
  }
  errors.push(...capErrors(next, targets, await tx.limit.count(), tenantPath));
  throwIfAny(errors);
  return next;
}

export async function applyLimit(
  principal: Principal,
  input: BulkLimitInput,
  requestId: string | null = null,
): Promise<BulkLimitResult> {
  const slugs = input.tenants ?? (input.tenant ? [input.tenant] : []);
  const [limit] = canonicalLimits([input.limit]);
  const outcome = await runTenantChange(slugs, principal, requestId, async (tx, audit) => {
    const targets = await findTargets(tx, principal, input);
    await check(tx, principal, input, targets);
    const result = { created: [] as string[], updated: [] as string[], unchanged: [] as string[] };
    for (const target of targets) {
      if (sameLimit(target.before, input.limit)) {
        result.unchanged.push(target.label);
        continue;
      }
      await writeLimit(tx, target, input.limit);
      const key = target.key ? { key: target.key.name } : {};
      await audit({
        action: target.before ? "limit.update" : "limit.create",
        targetType: target.key ? "key" : "tenant",
        targetId: target.key ? target.key.id : target.slug,
        tenantId: target.tenantId,
        before: target.before ? { ...key, limit: canonicalLimits([target.before])[0] } : null,
        after: { ...key, limit },
      });
      (target.before ? result.updated : result.created).push(target.label);
    }
    return result;
  });
  return { configVersion: outcome.configVersion, ...outcome.result };
}
