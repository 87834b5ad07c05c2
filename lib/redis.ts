import "server-only";
import { Cluster, Redis } from "ioredis";
import type { RedisOptions } from "ioredis";
import { env } from "@/lib/env";

export type RedisClient = Redis | Cluster;

// Hot-path settings: a dead Redis must fail fast, never queue commands or hang a check.
const hotPathOptions: RedisOptions = {
  commandTimeout: 1_000,
  connectTimeout: 1_000,
  maxRetriesPerRequest: 0,
  enableOfflineQueue: false,
  enableAutoPipelining: true,
  protocol: 2,
  retryStrategy: (attempt: number) => Math.min(50 * attempt, 500),
};

export function createRedis(overrides: RedisOptions = {}): RedisClient {
  const settings = env();
  const options = { ...hotPathOptions, ...overrides };
  if (settings.REDIS_CLUSTER_NODES) {
    const nodes = settings.REDIS_CLUSTER_NODES.split(",").map((node) => {
      const [host = "127.0.0.1", port = "6379"] = node.split(":");
      return { host, port: Number(port) };
    });
    return new Cluster(nodes, {
      redisOptions: options,
      enableOfflineQueue: false,
      enableAutoPipelining: true,
      slotsRefreshTimeout: 1_000,
      clusterRetryStrategy: (attempt: number) => Math.min(100 * attempt, 1_000),
    });
  }
  return new Redis(settings.REDIS_URL, options);
}

const holder = globalThis as unknown as { sluiceRedis?: RedisClient };

/** The process-wide client for commands (not for SUBSCRIBE: that needs its own connection). */
export function redis(): RedisClient {
  holder.sluiceRedis ??= createRedis();
  return holder.sluiceRedis;
}

export async function closeRedis(): Promise<void> {
  const client = holder.sluiceRedis;
  holder.sluiceRedis = undefined;
  if (client) await client.quit().catch(() => client.disconnect());
}
