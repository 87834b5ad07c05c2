import "server-only";
import { compileSnapshot } from "@/lib/config/compile";
import type { ConfigDocument } from "@/lib/config/document";
import type { PublishedConfig, PublishedServiceToken } from "@/lib/config/published";
import { readDocument, readIdMap } from "@/lib/data/read-document";
import type { Tx } from "@/lib/data/tx";
import { publishedOverrides } from "@/lib/data/override-view";

export interface CompiledVersion {
  published: PublishedConfig;
  /** the document it was compiled from: kept with the version for history and rollback */
  document: ConfigDocument;
}

/** Compiles what servers enforce, from the state the transaction sees. */
export async function compilePublished(tx: Tx, version: number): Promise<CompiledVersion> {
  // Sequential: a transaction is one connection, which runs one query at a time.
  const document = await readDocument(tx);
  const ids = await readIdMap(tx);
  const keys = await tx.apiKey.findMany({
    select: { hash: true, name: true, expiresAt: true, revokedAt: true, tenant: { select: { slug: true } } },
  });
  const tokens = await tx.serviceToken.findMany({
    where: { revokedAt: null },
    select: { id: true, hash: true, tenants: { select: { tenant: { select: { slug: true } } } } },
  });
  const overrides = await publishedOverrides(tx, Date.now());
  const published: PublishedConfig = {
    version,
    snapshot: compileSnapshot(document, ids, version),
    keys: Object.fromEntries(
      keys.map((key) => [
        key.hash,
        {
          tenant: key.tenant.slug,
          name: key.name,
          expiresAt: key.expiresAt?.getTime() ?? null,
          revoked: key.revokedAt !== null,
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
    // absent when there are none: versions without overrides stay as they were
    ...(overrides.length > 0 ? { overrides } : {}),
  };
  return { published, document };
}
