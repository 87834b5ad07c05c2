import "server-only";
import type { Principal } from "@/lib/shared/principal";
import type { DocumentError } from "@/lib/control/config/document";
import { tenantFor } from "@/lib/control/data/tenant-access";
import type { Tx } from "@/lib/control/data/tx";
import type { BulkLimitInput } from "@/lib/control/bulk/bulk-inputs";
import { tenantsFor, throwIfAny } from "@/lib/control/data/bulk/bulk-targets";
import type { LimitTarget } from "@/lib/control/bulk/limit-targets";

// The targets of a bulk limit, authorized as one limit edit of each would be: the editor
// role in every tenant named (an operator anywhere). The key-level call is one tenant's,
// answered as its single-key equivalents are (404 for a tenant out of sight); its keys
// must exist (revoked ones too: they stay in the snapshot), each missing one named.

export async function findTargets(
  tx: Tx,
  principal: Principal,
  input: BulkLimitInput,
): Promise<LimitTarget[]> {
  if (input.tenants) {
    const tenants = await tenantsFor(tx, principal, input.tenants, "editor");
    return tenants.map((tenant, i) => ({
      path: `tenants[${i}]`,
      label: `tenant ${tenant.slug}`,
      tenantId: tenant.id,
      slug: tenant.slug,
      docPath: "",
    }));
  }
  const slug = input.tenant ?? "";
  const names = input.keys ?? [];
  const tenant = await tenantFor(tx, principal, slug, "editor");
  const rows = await tx.apiKey.findMany({
    where: { tenantId: tenant.id, name: { in: names } },
    select: { id: true, name: true },
  });
  const byName = new Map(rows.map((row) => [row.name, row]));
  const errors: DocumentError[] = [];
  const targets: LimitTarget[] = [];
  names.forEach((name, i) => {
    const key = byName.get(name);
    if (!key) {
      errors.push({ path: `keys[${i}]`, message: `tenant ${slug} has no key named ${name}` });
      return;
    }
    targets.push({
      path: `keys[${i}]`,
      label: `key ${name} of tenant ${slug}`,
      tenantId: tenant.id,
      slug,
      key,
      docPath: "",
    });
  });
  throwIfAny(errors);
  return targets;
}
