import "server-only";
import type { ConfigDocument } from "@/lib/control/config/document";
import { readDocument } from "@/lib/control/data/read-document";
import type { Tx } from "@/lib/control/data/tx";

// What an import reads of the current configuration. Plans and global routes always (every
// tenant refers to them); of the tenants only those the document lists, unless it prunes
// or carries overrides (both need every tenant). So a one-tenant import stays cheap however
// many tenants there are, and a large one does not read what it is about to replace twice.

export interface ImportState {
  /** plans, global routes and the listed tenants (all tenants when `whole`) */
  current: ConfigDocument;
  whole: boolean;
  /** slug -> id of the listed tenants that exist */
  tenantIds: Map<string, string>;
  /** limit rows of the tenants the document does not list (their own, routes' and keys') */
  unlistedLimits: number;
}

/** Plans and global routes: what a document is validated against. */
export async function readBase(tx: Tx): Promise<ConfigDocument> {
  const { plans, routes } = await readDocument(tx, []);
  return { plans, routes };
}

export async function readImportState(
  tx: Tx,
  document: ConfigDocument,
  whole: boolean,
): Promise<ImportState> {
  const slugs = (document.tenants ?? []).map((t) => t.slug);
  const rows =
    slugs.length === 0
      ? []
      : await tx.tenant.findMany({ where: { slug: { in: slugs } }, select: { id: true, slug: true } });
  const tenantIds = new Map(rows.map((row) => [row.slug, row.id]));
  const ids = [...tenantIds.values()];
  const current = await readDocument(tx, whole ? undefined : ids);
  const counted = await tx.$queryRaw<{ n: number }[]>`
    select count(*)::int as n from "Limit" l
    left join "Route" r on r.id = l."routeId"
    left join "ApiKey" k on k.id = l."apiKeyId"
    where coalesce(l."tenantId", r."tenantId", k."tenantId") is not null
      and not coalesce(l."tenantId", r."tenantId", k."tenantId") = any(${ids}::text[])`;
  return { current, whole, tenantIds, unlistedLimits: counted[0]?.n ?? 0 };
}
