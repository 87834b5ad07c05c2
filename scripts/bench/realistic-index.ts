// The realistic mix's configuration (realistic-config.ts) compiled in process, with its
// 1,000 keys and their API keys, for check-path.ts: the bench's mix through the check
// pipeline alone, no database, HTTP or Redis. Key ids are made up; the shapes, limits and
// caches they meet are the bench's.
import { createHash } from "node:crypto";
import { compileSnapshot } from "@/lib/control/config/compile";
import { validateDocument } from "@/lib/control/config/document/validate-document";
import type { ConfigIndex } from "@/lib/check/config-index";
import { buildIndex } from "@/lib/check/config-state";
import type { PublishedConfig, PublishedKey } from "@/lib/check/published/published";
import { KEYS_PER_TENANT, TENANTS, keyName, realisticDocument, tenantSlug } from "./realistic-config";

export interface RealisticIndex {
  index: ConfigIndex;
  /** API keys interleaved by tenant, as the bench draws them by Zipf rank */
  apiKeys: string[];
}

const sha = (text: string): string => createHash("sha256").update(text).digest("hex");

export function realisticIndex(): RealisticIndex {
  const validated = validateDocument(realisticDocument(true, { plans: [], routes: [] }));
  if (!validated.ok) throw new Error(`realistic document: ${JSON.stringify(validated.errors[0])}`);
  const document = validated.document;
  const tenants: Record<string, string> = {};
  const keyIds: Record<string, Record<string, string>> = {};
  const keys: Record<string, PublishedKey> = {};
  const apiKeys: string[] = [];
  for (let t = 0; t < TENANTS; t++) {
    tenants[tenantSlug(t)] = `tenant-${t}`;
    keyIds[tenantSlug(t)] = {};
  }
  for (let k = 0; k < KEYS_PER_TENANT; k++)
    for (let t = 0; t < TENANTS; t++) {
      const slug = tenantSlug(t);
      (keyIds[slug] as Record<string, string>)[keyName(k)] = `key-${t}-${k}`;
      const apiKey = `sk_realistic_${t}_${k}`;
      keys[sha(apiKey)] = { tenant: slug, name: keyName(k), expiresAt: null, revoked: false };
      apiKeys.push(apiKey);
    }
  const snapshot = compileSnapshot(document, { tenants, keys: keyIds }, 1);
  const published: PublishedConfig = { version: 1, snapshot, keys, serviceTokens: {} };
  return { index: buildIndex(published), apiKeys };
}
