import "server-only";
import type { ConfigDocument, DocumentError } from "@/lib/control/config/document";
import type { Tx } from "@/lib/control/data/tx";

// The rule of an import that needs the database: a plan still in use cannot go. (What a
// tenant-scoped principal may not change: config/import/imposed-overrides.ts; keys an import
// makes: import-keys.ts.)

export async function checkAgainstDatabase(
  tx: Tx,
  next: ConfigDocument,
  current: ConfigDocument,
  prune: boolean,
): Promise<DocumentError[]> {
  if (!next.plans) return [];
  const kept = new Set(next.plans.map((p) => p.name));
  const removed = (current.plans ?? []).filter((p) => !kept.has(p.name)).map((p) => p.name);
  if (removed.length === 0) return [];
  const tenants = next.tenants ?? [];
  const listed = new Set(tenants.map((t) => t.slug));
  // the tenants on a plan that goes, from the database: `current` may hold only the listed ones
  const users = await tx.tenant.findMany({
    where: { plan: { name: { in: removed } } },
    select: { slug: true, plan: { select: { name: true } } },
    orderBy: { slug: "asc" },
  });
  const planOf = new Map<string, string>();
  for (const tenant of users)
    if (!prune && !listed.has(tenant.slug)) planOf.set(tenant.slug, tenant.plan.name);
  for (const tenant of tenants) planOf.set(tenant.slug, tenant.plan);
  const errors: DocumentError[] = [];
  for (const plan of removed) {
    const slugs = [...planOf].filter(([, name]) => name === plan).map(([slug]) => slug);
    if (slugs.length > 0) {
      errors.push({
        path: "plans",
        message: `plan ${plan} cannot be removed: tenants ${slugs.join(", ")} still use it`,
      });
    }
  }
  return errors;
}
