import "server-only";
import { latestPublished } from "@/lib/control/data/config-versions";
import { Cluster, type Redis } from "ioredis";
import type { Snapshot } from "@/lib/control/config/compile";
import { env } from "@/lib/shared/env";
import { controlOptions, createRedis, redis, type RedisClient } from "@/lib/shared/redis/redis";
import { runScript } from "@/lib/shared/redis/ioredis-scripts";
import { dropEntriesScript } from "@/lib/check/limiter/script";
import { globalSingleton } from "@/lib/shared/global-singleton";

// What counters.ts needs around Redis: the compiled snapshot the servers enforce (read from
// PostgreSQL, the source of truth, so state and reset work while Redis is being healed), a
// client that sees the counters under the deployment's key prefix, SCAN + DEL, and the
// removal of counters (entries) from owner keys.

export class StoreUnavailableError extends Error {
  override name = "StoreUnavailableError";
  constructor(cause: unknown) {
    super("Redis did not answer; the counters cannot be read or cleared right now. Try again shortly.");
    this.cause = cause;
  }
}

/** Runs Redis work; any failure of the store becomes a 503 the caller can retry. */
export async function withStore<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new StoreUnavailableError(error);
  }
}

/** The newest compiled snapshot as saved, without temporary overrides (snapshot-now.ts applies them). */
export async function latestSnapshot(): Promise<Snapshot | null> {
  return (await latestPublished())?.snapshot ?? null;
}

const prefixed = globalSingleton<RedisClient>("sluiceCounterRedis", () =>
  createRedis({ ...controlOptions, keyPrefix: env().REDIS_PREFIX }),
);

/**
 * The limiter applies REDIS_PREFIX as ioredis' keyPrefix (lib/limiter/keys.ts), so reading
 * counters through the script needs the same; without a prefix the control client serves.
 */
export function counterClient(): RedisClient {
  if (env().REDIS_PREFIX === "") return redis();
  return prefixed.get();
}

async function scanNode(node: Redis, pattern: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = "0";
  do {
    const [next, keys] = await node.scan(cursor, "MATCH", pattern, "COUNT", 1000);
    cursor = next;
    found.push(...keys);
  } while (cursor !== "0");
  return found;
}

/**
 * Every key matching the glob (full key names, prefix added here), on every master of a
 * cluster, grouped by node. Our key parts are percent-encoded: they hold no glob characters.
 */
export async function findMatching(pattern: string): Promise<Map<Redis, string[]>> {
  const client = redis();
  const nodes = client instanceof Cluster ? client.nodes("master") : [client];
  const found = new Map<Redis, string[]>();
  for (const node of nodes) {
    const keys = await scanNode(node, `${env().REDIS_PREFIX}${pattern}`);
    if (keys.length > 0) found.set(node, keys);
  }
  return found;
}

/** Deletes keys found by findMatching, each on the node that holds it; returns the count. */
export async function deleteFound(found: Map<Redis, string[]>): Promise<number> {
  let deleted = 0;
  for (const [node, keys] of found) {
    // One key per DEL: keys of one tenant share a slot, but this stays right for any layout.
    const counts = await Promise.all(keys.map((key) => node.del(key)));
    deleted += counts.reduce((sum, n) => sum + n, 0);
  }
  return deleted;
}

/** Owner keys that may hold the named entries: on `client` (a node, keys with their prefix,
 * or the counter client, which adds it). */
export interface EntryKeys {
  client: RedisClient;
  keys: string[];
  entries: string[];
}

const KEYS_PER_CALL = 500;

/** How many of the entries the keys hold; with `drop`, removes them (lua/drop-entries.lua). */
export async function countOrDropEntries(found: readonly EntryKeys[], drop: boolean): Promise<number> {
  let total = 0;
  for (const { client, keys, entries } of found) {
    for (let i = 0; i < keys.length; i += KEYS_PER_CALL) {
      const chunk = keys.slice(i, i + KEYS_PER_CALL);
      const reply = await runScript(client, dropEntriesScript(), chunk, [
        drop ? "drop" : "count",
        ...entries,
      ]);
      total += Number(reply);
    }
  }
  return total;
}

export { latestPublished };
