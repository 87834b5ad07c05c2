import "server-only";
import type { ConfigDocument, DocumentError, TenantDoc } from "@/lib/config/document";
import { canonicalLimits, sameJson } from "@/lib/data/canonical";
import type { Tx } from "@/lib/data/tx";

// The rules of an import that need the database: keys named must exist, a plan still in
// use cannot go, and what a tenant-scoped principal may not change.

export async function checkAgainstDatabase(
  tx: Tx,
  next: ConfigDocument,
  current: ConfigDocument,
  prune: boolean,
): Promise<DocumentError[]> {
  const errors: DocumentError[] = [];
  const tenants = next.tenants ?? [];
  const keyRows = await tx.apiKey.findMany({
    where: { tenant: { slug: { in: tenants.map((t) => t.slug) } } },
    select: { name: true, tenant: { select: { slug: true } } },
  });
  const existingKeys = new Set(keyRows.map((k) => `${k.tenant.slug}/${k.name}`));
  tenants.forEach((tenant, t) =>
    tenant.keys.forEach((key, k) => {
      if (!existingKeys.has(`${tenant.slug}/${key.name}`)) {
        errors.push({
          path: `tenants[${t}].keys[${k}].name`,
          message: `tenant ${tenant.slug} has no key named ${key.name}; create the key first (imports never create keys)`,
        });
      }
    }),
  );
  if (next.plans) {
    const kept = new Set(next.plans.map((p) => p.name));
    const listed = new Set(tenants.map((t) => t.slug));
    const planOf = new Map<string, string>();
    for (const tenant of current.tenants ?? [])
      if (!prune && !listed.has(tenant.slug)) planOf.set(tenant.slug, tenant.plan);
    for (const tenant of tenants) planOf.set(tenant.slug, tenant.plan);
    for (const plan of current.plans ?? []) {
      if (kept.has(plan.name)) continue;
      const users = [...planOf].filter(([, name]) => name === plan.name).map(([slug]) => slug);
      if (users.length > 0) {
        errors.push({
          path: "plans",
          message: `plan ${plan.name} cannot be removed: tenants ${users.join(", ")} still use it`,
        });
      }
    }
  }
  return errors;
}

/** Names a tenant-scoped principal may not override or change: the plan's and global routes' limits. */
function imposedNames(current: ConfigDocument, planName: string): Set<string> {
  const plan = current.plans?.find((p) => p.name === planName);
  const names = new Set(plan?.limits.map((l) => l.name) ?? []);
  for (const route of current.routes ?? []) for (const limit of route.limits) names.add(limit.name);
  return names;
}

/** Errors for what a tenant member changed that only an operator may change. */
export function checkTenantScope(next: TenantDoc, current: TenantDoc): DocumentError[] {
  const errors: DocumentError[] = [];
  if (next.plan !== current.plan)
    errors.push({ path: "tenants[0].plan", message: "only an operator can change a tenant's plan" });
  if (next.status !== current.status)
    errors.push({
      path: "tenants[0].status",
      message: "only an operator can suspend or reactivate a tenant",
    });
  return errors;
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
  next.keys.forEach((key, k) =>
    compare(
      `tenants[0].keys[${k}].limits`,
      key.limits,
      current.keys.find((c) => c.name === key.name)?.limits ?? [],
    ),
  );
  return errors;
}
