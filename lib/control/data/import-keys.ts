import "server-only";
import { keyCreated } from "@/lib/control/data/create-keys";
import { hasRole, isOperator, type Principal } from "@/lib/shared/principal";
import { newSecret } from "@/lib/shared/secrets";
import type { DocumentError, DocumentRefs } from "@/lib/control/config/document";
import type { Audit } from "@/lib/control/data/audit";
import { countCaps, type CountCaps } from "@/lib/control/config/import/count-caps";
import { insertKeys, newRowId } from "@/lib/control/data/bulk-insert";
import { ForbiddenError } from "@/lib/control/errors/errors";
import type { Tx } from "@/lib/control/data/tx";

// Keys an import creates (docs/configuration.md): a key a tenant's `keys` list names that
// the tenant does not have. The same rules as POST /api/admin/tenants/{slug}/keys: the
// editor role in that tenant, the per-tenant cap (revoked keys count), one key.create audit
// entry each; the secret is shown once, in the import's answer. Planned from the document's
// names alone, so a document that failed its schema still hears about caps in one answer.

/** A key the import makes; id and secret only once made (a dry run shows neither). */
export interface ImportedKey {
  tenant: string;
  name: string;
  id?: string;
  prefix?: string;
  secret?: string;
}

export interface KeyPlan {
  /** per listed slug that exists: its id and how many keys it has (revoked included) */
  existing: Map<string, { tenantId: string; names: Set<string> }>;
  /** keys to make, in document order */
  wanted: { tenant: string; name: string }[];
}

/** Which of the keys the document names must be made. One query for every listed tenant. */
export async function planKeys(tx: Tx, document: DocumentRefs): Promise<KeyPlan> {
  const tenants = document.tenants ?? [];
  const slugs = tenants.flatMap((t) => (t?.slug ? [t.slug] : []));
  const existing: KeyPlan["existing"] = new Map();
  if (slugs.length > 0) {
    const rows = await tx.$queryRaw<{ tenantId: string; slug: string; name: string | null }[]>`
      select t.id as "tenantId", t.slug, k.name from "Tenant" t
      left join "ApiKey" k on k."tenantId" = t.id where t.slug = any(${slugs}::text[])`;
    for (const row of rows) {
      const entry = existing.get(row.slug) ?? { tenantId: row.tenantId, names: new Set<string>() };
      if (row.name !== null) entry.names.add(row.name);
      existing.set(row.slug, entry);
    }
  }
  const wanted: KeyPlan["wanted"] = [];
  for (const tenant of tenants) {
    if (!tenant?.slug) continue;
    const names = existing.get(tenant.slug)?.names;
    const seen = new Set<string>();
    for (const key of tenant.keys) {
      if (!key?.name || names?.has(key.name) || seen.has(key.name)) continue;
      seen.add(key.name);
      wanted.push({ tenant: tenant.slug, name: key.name });
    }
  }
  return { existing, wanted };
}

/**
 * Past the per-tenant cap: an error on the tenant's `keys` list. Only tenants the principal
 * may see are looked at: naming another tenant's slug must not tell how many keys it has.
 */
export function keyCapErrors(
  principal: Principal,
  document: DocumentRefs,
  plan: KeyPlan,
  caps: CountCaps = countCaps(),
): DocumentError[] {
  const errors: DocumentError[] = [];
  (document.tenants ?? []).forEach((tenant, t) => {
    if (!tenant?.slug) return;
    const existing = plan.existing.get(tenant.slug);
    if (existing && !hasRole(principal, existing.tenantId, "viewer")) return;
    const made = plan.wanted.filter((k) => k.tenant === tenant.slug).length;
    const had = existing?.names.size ?? 0;
    if (made > 0 && had + made > caps.keysPerTenant) {
      errors.push({
        path: `tenants[${t}].keys`,
        message: `${made} new keys would give tenant ${tenant.slug} ${had + made} (it has ${had}, revoked ones included); at most ${caps.keysPerTenant} per tenant (SLUICE_MAX_KEYS_PER_TENANT)`,
      });
    }
  });
  return errors;
}

/** Making keys needs the editor role in their tenant (a new tenant: an operator's import). */
export function assertMayCreateKeys(principal: Principal, plan: KeyPlan): void {
  if (isOperator(principal)) return;
  for (const key of plan.wanted) {
    const tenantId = plan.existing.get(key.tenant)?.tenantId;
    if (!tenantId || !hasRole(principal, tenantId, "editor"))
      throw new ForbiddenError(`Creating keys needs the editor role in tenant ${key.tenant}.`);
  }
}

/** Makes the planned keys (after their tenants exist), auditing each as the keys endpoint does. */
export async function createKeys(
  tx: Tx,
  wanted: KeyPlan["wanted"],
  tenantIds: ReadonlyMap<string, string>,
  audit: Audit,
): Promise<ImportedKey[]> {
  if (wanted.length === 0) return [];
  const made: ImportedKey[] = [];
  for (let start = 0; start < wanted.length; start += CHUNK) {
    const part = wanted.slice(start, start + CHUNK).map((key) => {
      const tenantId = tenantIds.get(key.tenant);
      if (!tenantId) throw new Error(`tenant ${key.tenant} vanished during the import`);
      return { ...key, tenantId, secret: newSecret("sk") };
    });
    const rows = part.map((k) => ({
      id: newRowId(),
      tenantId: k.tenantId,
      name: k.name,
      prefix: k.secret.prefix,
      hash: k.secret.hash,
    }));
    await insertKeys(tx, rows);
    const idOf = new Map(rows.map((row) => [`${row.tenantId}/${row.name}`, row]));
    for (const key of part) {
      const row = idOf.get(`${key.tenantId}/${key.name}`);
      if (!row) throw new Error(`key ${key.tenant}/${key.name} was not created`);
      await audit(keyCreated({ ...row, expiresAt: null }, key.tenantId));
      made.push({
        tenant: key.tenant,
        name: key.name,
        id: row.id,
        prefix: row.prefix,
        secret: key.secret.secret,
      });
    }
  }
  return made;
}

/** Rows per statement: PostgreSQL takes at most 65,535 bind values in one. */
const CHUNK = 5_000;
