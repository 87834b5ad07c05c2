import "server-only";
import { createHash } from "node:crypto";
import { compileSnapshot } from "@/lib/control/config/compile";
import type { ConfigDocument } from "@/lib/control/config/document";
import { splitPublished, tenantOfPart, type ConfigPart } from "@/lib/check/published/parts";
import type { PublishedConfig, PublishedServiceToken } from "@/lib/check/published/published";
import { readDocument, readIdMap } from "@/lib/control/data/read-document";
import type { Tx } from "@/lib/control/data/tx";
import { publishedOverrides } from "@/lib/control/data/override-view";
import { anyParts, partHeads, type PartRow } from "@/lib/control/data/config-parts/part-store";

// Compiles what a change touched, in the change's transaction: the named tenants only (their
// tenant and key parts), or everything (a global change, or the first version in parts).
// Each part is compared with its newest stored hash, so a version keeps and ships only the
// parts that differ: a new key is one key part, a plan change the tenants on that plan.

/** The part rows that differ from the newest stored, removed parts included. */
export async function compileChange(
  tx: Tx,
  version: number,
  slugs: readonly string[] | null,
): Promise<PartRow[]> {
  const whole = slugs === null || !(await anyParts(tx));
  const only = whole ? null : [...new Set(slugs)];
  const ids = only
    ? (await tx.tenant.findMany({ where: { slug: { in: only } }, select: { id: true } })).map((t) => t.id)
    : undefined;
  const document = await readDocument(tx, ids);
  const published = await compileTenants(tx, version, document, ids);
  const rows = partRows(splitPublished(published, whole), document);
  const heads = await partHeads(tx, only);
  const changed = rows.filter((row) => heads.get(row.scope)?.hash !== row.hash);
  const compiled = new Set(rows.map((row) => row.scope));
  for (const [scope, head] of heads) {
    if (!head.live || compiled.has(scope)) continue;
    // gone (a tenant or key deleted): a removal, so readers drop it from this version on
    changed.push({ scope, tenant: head.tenant, compiled: null, document: null, hash: "" });
  }
  return changed;
}

async function compileTenants(
  tx: Tx,
  version: number,
  document: ConfigDocument,
  ids: string[] | undefined,
): Promise<PublishedConfig> {
  // Sequential: a transaction is one connection, which runs one query at a time.
  const idMap = await readIdMap(tx, ids);
  const keys = await tx.apiKey.findMany({
    where: ids ? { tenantId: { in: ids } } : undefined,
    select: {
      hash: true,
      name: true,
      expiresAt: true,
      revokedAt: true,
      previousHash: true,
      previousUntil: true,
      tenant: { select: { slug: true } },
    },
  });
  const tokens = ids
    ? []
    : await tx.serviceToken.findMany({
        where: { revokedAt: null },
        select: { id: true, hash: true, tenants: { select: { tenant: { select: { slug: true } } } } },
      });
  const overrides = await publishedOverrides(tx, Date.now(), ids);
  return {
    version,
    snapshot: compileSnapshot(document, idMap, version),
    keys: Object.fromEntries(
      keys.map((key) => [
        key.hash,
        {
          tenant: key.tenant.slug,
          name: key.name,
          expiresAt: key.expiresAt?.getTime() ?? null,
          revoked: key.revokedAt !== null,
          ...(key.previousHash !== null && key.previousUntil !== null
            ? { previous: { hash: key.previousHash, until: key.previousUntil.getTime() } }
            : {}),
        },
      ]),
    ),
    serviceTokens: Object.fromEntries(
      tokens.map((token): [string, PublishedServiceToken] => [
        token.hash,
        {
          id: token.id,
          tenants: token.tenants.length === 0 ? null : token.tenants.map((t) => t.tenant.slug).sort(),
        },
      ]),
    ),
    ...(overrides.length > 0 ? { overrides } : {}),
  };
}

/** The document each part carries (history and rollback): plans and routes, or a tenant's entry. */
function documentsOf(document: ConfigDocument): (part: ConfigPart) => unknown {
  const tenants = new Map((document.tenants ?? []).map((t) => [t.slug, t]));
  const overrides = new Map<string, NonNullable<ConfigDocument["overrides"]>>();
  for (const override of document.overrides ?? []) {
    const list = overrides.get(override.tenant);
    if (list) list.push(override);
    else overrides.set(override.tenant, [override]);
  }
  return (part) => {
    if (part.kind === "global")
      return {
        plans: document.plans ?? [],
        routes: document.routes ?? [],
        ...(document.lists !== undefined ? { lists: document.lists } : {}),
      };
    if (part.kind === "key") return null;
    const slug = part.tenant.slug;
    return { tenant: tenants.get(slug) ?? null, overrides: overrides.get(slug) ?? [] };
  };
}

function partRows(parts: Map<string, ConfigPart>, document: ConfigDocument): PartRow[] {
  const rows: PartRow[] = [];
  const documentOf = documentsOf(document);
  for (const [scope, part] of parts) {
    const compiled = JSON.stringify(part);
    const doc = documentOf(part);
    const text = doc === null ? null : JSON.stringify(doc);
    const hash = createHash("sha256")
      .update(compiled)
      .update("\n")
      .update(text ?? "")
      .digest("hex");
    rows.push({ scope, tenant: tenantOfPart(part), compiled, document: text, hash });
  }
  return rows;
}
