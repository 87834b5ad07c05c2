// The tenants' API keys. A configuration document cannot create keys yet, so they are
// written the fastest honest way: rows inserted in SQL, hashed as lib/control/data/api-keys.ts
// hashes them (lib/auth/secrets), then one configuration change (the plan's key limit, a
// change of every tenant) publishes them. Timed apart from the import.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { Admin, importedVersion } from "./admin-client";
import { CheckClient } from "./check-client";
import { KEYS_PER_TENANT, planDoc } from "./document";
import { waitFor } from "./stats";

export interface SeededKeys {
  /** secrets by tenant slug */
  secrets: Map<string, string[]>;
  sqlMs: number;
  changeMs: number;
  /** from the change's answer until both servers accept sampled keys (null: cut) */
  enforcedMs: number | null;
}

const ROWS_PER_INSERT = 10_000;

export async function seedKeys(
  databaseUrl: string,
  admin: Admin,
  clients: CheckClient[],
  sample: readonly string[],
): Promise<SeededKeys> {
  await import(new URL("../../server-only-hook.mjs", import.meta.url).href);
  const { newSecret } = await import("@/lib/shared/secrets");
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const secrets = new Map<string, string[]>();
  const started = performance.now();
  try {
    const tenants = await client.query<{ id: string; slug: string }>(`SELECT id, slug FROM "Tenant"`);
    const rows: Array<[string, string, string, string, string]> = [];
    for (const { id, slug } of tenants.rows) {
      const mine: string[] = [];
      for (let k = 0; k < KEYS_PER_TENANT; k++) {
        const secret = newSecret("sk");
        mine.push(secret.secret);
        rows.push([`bench${randomBytes(12).toString("hex")}`, id, `k${k}`, secret.prefix, secret.hash]);
      }
      secrets.set(slug, mine);
    }
    for (let at = 0; at < rows.length; at += ROWS_PER_INSERT) {
      const part = rows.slice(at, at + ROWS_PER_INSERT);
      const column = (c: number) => part.map((row) => row[c]);
      await client.query(
        `INSERT INTO "ApiKey" (id, "tenantId", name, prefix, hash)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])`,
        [column(0), column(1), column(2), column(3), column(4)],
      );
    }
  } finally {
    await client.end();
  }
  const sqlMs = performance.now() - started;
  // one change that every tenant's keys are published by: the plan's key limit, one less
  const answer = await admin.call("PUT", "/api/admin/config", { plans: [planDoc(999_999_999)] }, 300_000);
  importedVersion(answer, "the change publishing the keys");
  const keysOf = sample.flatMap((slug) => secrets.get(slug) ?? []);
  const enforcedMs = await waitFor(async () => {
    for (const check of clients)
      for (const apiKey of keysOf) {
        const { decision } = await check.check({ apiKey, dryRun: true });
        if (decision?.reason !== "ok") return false;
      }
    return true;
  }, 60_000);
  return { secrets, sqlMs, changeMs: answer.ms, enforcedMs };
}
