import "server-only";
import { isOperator, hasRole, type Principal } from "@/lib/auth/principal";
import type { DocumentError, DocumentRefs } from "@/lib/config/document";
import type { Tx } from "@/lib/data/tx";

// Keys a document names must exist (imports never create keys). Read from the document's
// names alone, so a document that failed its schema still hears about them in the same
// answer. Only tenants the principal may see are looked at: naming another tenant's slug
// must not tell whether it has a key of some name.

export async function missingKeyErrors(
  tx: Tx,
  principal: Principal,
  document: DocumentRefs,
): Promise<DocumentError[]> {
  const tenants = document.tenants ?? [];
  const slugs = tenants.flatMap((t) => (t?.slug ? [t.slug] : []));
  if (slugs.length === 0) return [];
  const rows = await tx.tenant.findMany({
    where: { slug: { in: slugs } },
    select: { id: true, slug: true, apiKeys: { select: { name: true } } },
  });
  const keysOf = new Map(rows.map((row) => [row.slug, new Set(row.apiKeys.map((k) => k.name))]));
  const visible = (slug: string): boolean => {
    if (isOperator(principal)) return true;
    const row = rows.find((r) => r.slug === slug);
    return row !== undefined && hasRole(principal, row.id, "viewer");
  };
  const errors: DocumentError[] = [];
  tenants.forEach((tenant, t) => {
    if (!tenant?.slug || !visible(tenant.slug)) return;
    const existing = keysOf.get(tenant.slug) ?? new Set<string>();
    tenant.keys.forEach((key, k) => {
      if (!key?.name || existing.has(key.name)) return;
      errors.push({
        path: `tenants[${t}].keys[${k}].name`,
        message: `tenant ${tenant.slug} has no key named ${key.name}; create the key first (imports never create keys)`,
      });
    });
  });
  return errors;
}
