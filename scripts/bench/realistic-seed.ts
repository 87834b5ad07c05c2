// Seeds the realistic mix (realistic-config.ts) into the bench database: the tenants and
// routes, 1,000 API keys, then the key-level overrides. Runs after seed-bench.ts, beside it.
import type { Principal } from "@/lib/auth/principal";
import { createApiKey } from "@/lib/data/api-keys";
import { importConfig } from "@/lib/data/import-config";
import { KEYS_PER_TENANT, TENANTS, keyName, realisticDocument, tenantSlug } from "./realistic-config";
import { document as benchDocument } from "./seed-bench";

const bench: Principal = { kind: "system", label: "bench" };

/** One seeded key: its secret and what it stands for (the peer keys its limiters by these). */
export interface SeededKey {
  apiKey: string;
  tenant: number;
  key: number;
}

export async function seedRealistic(): Promise<SeededKey[]> {
  const base = benchDocument(true);
  await importConfig(bench, realisticDocument(false, base));
  // One chain of creations per tenant, the chains side by side: each creation publishes a
  // version, and one after another the thousand took minutes.
  const byTenant = await Promise.all(
    Array.from({ length: TENANTS }, async (_, t) => {
      const created: SeededKey[] = [];
      for (let k = 0; k < KEYS_PER_TENANT; k++) {
        const { key } = await createApiKey(bench, tenantSlug(t), { name: keyName(k) });
        created.push({ apiKey: key, tenant: t, key: k });
      }
      return created;
    }),
  );
  // Interleaved by tenant: the load picks keys by Zipf rank, so the hot keys span tenants.
  const keys: SeededKey[] = [];
  for (let k = 0; k < KEYS_PER_TENANT; k++)
    for (const created of byTenant) keys.push(created[k] as SeededKey);
  await importConfig(bench, realisticDocument(true, base));
  return keys;
}
