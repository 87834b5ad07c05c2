import "server-only";
import { Cluster, type Redis } from "ioredis";
import type { RedisClient } from "@/lib/shared/redis/redis";

// One bounded pass over Redis estimating each tenant's memory (so one tenant filling Redis
// shows on its page and in /api/metrics): SCAN the keys of tenants' hash tags, {t:<id>}
// (counters, sliding logs) and {u:<id>} (usage), count them per tenant and MEMORY USAGE a
// sample of each tenant's keys; bytes = the sample's mean x the keys counted. Approximate
// by design and never on the check path: the pass examines at most `maxKeys` keys, and a
// pass cut short marks its figures incomplete (then they are lower bounds).

export interface MemoryScanOptions {
  /** REDIS_PREFIX: keys are read with it, on the nodes themselves */
  prefix: string;
  /** keys examined per pass, across all masters */
  maxKeys: number;
  /** MEMORY USAGE calls per tenant per pass */
  samplesPerTenant: number;
}

export interface TenantMemory {
  bytes: number;
  keys: number;
  /** false when the pass stopped at maxKeys before the end of the keyspace */
  complete: boolean;
}

const SCAN_COUNT = 1_000;

interface Tally {
  keys: number;
  sample: { node: Redis; key: string }[];
}

/** The tenant id of a key "<prefix>{t:<id>}:..." or "<prefix>{u:<id>}:...", percent-decoded. */
export function tenantOfKey(key: string, prefix: string): string | null {
  if (!key.startsWith(prefix)) return null;
  const end = key.indexOf("}", prefix.length);
  if (end < 0) return null;
  const tag = key.slice(prefix.length, end);
  if (!tag.startsWith("{t:") && !tag.startsWith("{u:")) return null;
  try {
    return decodeURIComponent(tag.slice(3));
  } catch {
    return null;
  }
}

function mastersOf(client: RedisClient): Redis[] {
  return client instanceof Cluster ? client.nodes("master") : [client];
}

export async function scanTenantMemory(
  client: RedisClient,
  options: MemoryScanOptions,
): Promise<Map<string, TenantMemory>> {
  const tallies = new Map<string, Tally>();
  let budget = options.maxKeys;
  let complete = true;
  for (const node of mastersOf(client)) {
    let cursor = "0";
    do {
      if (budget <= 0) {
        complete = false;
        break;
      }
      const count = Math.min(SCAN_COUNT, budget);
      const [next, keys] = await node.scan(cursor, "MATCH", `${options.prefix}{[tu]:*`, "COUNT", count);
      budget -= count;
      cursor = next;
      for (const key of keys) {
        const tenant = tenantOfKey(key, options.prefix);
        if (tenant === null) continue;
        let tally = tallies.get(tenant);
        if (!tally) tallies.set(tenant, (tally = { keys: 0, sample: [] }));
        tally.keys += 1;
        // Reservoir sampling: every key of the tenant has the same chance to be measured.
        if (tally.sample.length < options.samplesPerTenant) tally.sample.push({ node, key });
        else {
          const slot = Math.floor(Math.random() * tally.keys);
          if (slot < options.samplesPerTenant) tally.sample[slot] = { node, key };
        }
      }
    } while (cursor !== "0");
  }
  const result = new Map<string, TenantMemory>();
  for (const [tenant, tally] of tallies) {
    const sizes = await Promise.all(
      tally.sample.map(({ node, key }) =>
        node.call("MEMORY", "USAGE", key).then((bytes) => (typeof bytes === "number" ? bytes : null)),
      ),
    );
    const measured = sizes.filter((bytes): bytes is number => bytes !== null);
    const mean = measured.length === 0 ? 0 : measured.reduce((sum, b) => sum + b, 0) / measured.length;
    result.set(tenant, { bytes: Math.round(mean * tally.keys), keys: tally.keys, complete });
  }
  return result;
}
