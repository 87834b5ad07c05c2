// Seeds the realistic mix (realistic-config.ts) into the bench database: the tenants and
// routes, 1,000 API keys, then the key-level overrides. Runs after seed-bench.ts, beside it.
import type { Principal } from "@/lib/shared/principal";
import { createApiKeys } from "@/lib/control/data/api-keys";
import { importConfig } from "@/lib/control/data/import-config";
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
  // One change per tenant (each key alone publishes a version: a thousand took minutes).
  const byTenant = await Promise.all(
    Array.from({ length: TENANTS }, async (_, t) => {
      const names = Array.from({ length: KEYS_PER_TENANT }, (_, k) => ({ name: keyName(k) }));
      const created = await createApiKeys(bench, tenantSlug(t), names);
      return created.map((c, k): SeededKey => ({ apiKey: c.key, tenant: t, key: k }));
    }),
  );
  // Interleaved by tenant: the load picks keys by Zipf rank, so the hot keys span tenants.
  const keys: SeededKey[] = [];
  for (let k = 0; k < KEYS_PER_TENANT; k++)
    for (const created of byTenant) keys.push(created[k] as SeededKey);
  await importConfig(bench, realisticDocument(true, base));
  return keys;
}
