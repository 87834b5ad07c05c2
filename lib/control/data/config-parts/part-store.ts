import "server-only";
import type { Tx } from "@/lib/control/data/tx";

// ConfigPart rows (what each version changed) and ConfigPartHead (the newest of each part),
// written in the change's transaction (config-change.ts).

export interface PartRow {
  scope: string;
  /** the tenant's slug; null for the global part */
  tenant: string | null;
  /** null: the version removed the part */
  compiled: string | null;
  document: string | null;
  hash: string;
}

export interface PartHead {
  tenant: string | null;
  hash: string;
  live: boolean;
}

/** The newest hash of every part of these tenants (null: every part, global included). */
export async function partHeads(tx: Tx, tenants: readonly string[] | null): Promise<Map<string, PartHead>> {
  const rows = await tx.configPartHead.findMany({
    where: tenants === null ? undefined : { tenant: { in: [...tenants] } },
    select: { scope: true, tenant: true, hash: true, live: true },
  });
  return new Map(rows.map((row) => [row.scope, { tenant: row.tenant, hash: row.hash, live: row.live }]));
}

/** True once any version was stored in parts (before: every version is whole). */
export async function anyParts(tx: Tx): Promise<boolean> {
  return (await tx.configPartHead.findFirst({ select: { scope: true } })) !== null;
}

const CHUNK = 2_000;

export async function writeParts(tx: Tx, version: number, rows: readonly PartRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += CHUNK) {
    // One JSON text per chunk: arrays of large strings as query parameters cost the driver
    // far more (seconds for a 10,000-tenant import) than one string PostgreSQL takes apart.
    const chunk = JSON.stringify(rows.slice(start, start + CHUNK));
    await tx.$executeRaw`
      insert into "ConfigPart" ("scope", "version", "tenant", "compiled", "document", "hash")
      select scope, ${version}::int, tenant, compiled, document, hash
      from json_to_recordset(${chunk}::json)
        as t(scope text, tenant text, compiled text, document text, hash text)`;
    await tx.$executeRaw`
      insert into "ConfigPartHead" ("scope", "tenant", "version", "hash", "live")
      select scope, tenant, ${version}::int, hash, compiled is not null
      from json_to_recordset(${chunk}::json) as t(scope text, tenant text, compiled text, hash text)
      on conflict ("scope") do update
        set "tenant" = excluded."tenant", "version" = excluded."version",
            "hash" = excluded."hash", "live" = excluded."live"`;
  }
}
