import "server-only";
import { Cluster, Redis } from "ioredis";
import type { RedisOptions } from "ioredis";
import { env } from "@/lib/shared/env";
import { parseAddresses } from "@/lib/shared/redis/redis-addresses";
import { globalSingleton } from "@/lib/shared/global-singleton";

export type RedisClient = Redis | Cluster;

// Hot-path settings: a dead Redis must fail fast, never queue commands or hang a check.
// No auto-pipelining: the check batcher already sends a tenant's concurrent checks as one
// script call, and ioredis' auto-pipeline only deferred each write (slower, docs/architecture.md).
export const hotPathOptions: RedisOptions = {
  commandTimeout: 1_000,
  connectTimeout: 1_000,
  maxRetriesPerRequest: 0,
  enableOfflineQueue: false,
  enableAutoPipelining: false,
  protocol: 2,
  retryStrategy: (attempt: number) => Math.min(50 * attempt, 500),
};

// Control-plane settings (publishing, admin reads, scripts): wait briefly for a connection
// instead of failing the first command, but never for long.
export const controlOptions: RedisOptions = {
  commandTimeout: 2_000,
  connectTimeout: 2_000,
  maxRetriesPerRequest: 1,
  enableOfflineQueue: true,
  protocol: 2,
  retryStrategy: (attempt: number) => Math.min(100 * attempt, 1_000),
};

export function createRedis(options: RedisOptions = controlOptions): RedisClient {
  const settings = env();
  if (settings.REDIS_CLUSTER_NODES) {
    const nodes = settings.REDIS_CLUSTER_NODES.split(",").map((node) => {
      const [host = "127.0.0.1", port = "6379"] = node.split(":");
      return { host, port: Number(port) };
    });
    return new Cluster(nodes, {
      redisOptions: options,
      enableOfflineQueue: options.enableOfflineQueue ?? true,
      enableAutoPipelining: options.enableAutoPipelining ?? false,
      slotsRefreshTimeout: 1_000,
      clusterRetryStrategy: (attempt: number) => Math.min(100 * attempt, 1_000),
    });
  }
  if (settings.REDIS_SENTINELS) {
    // ioredis asks the sentinels for the master, checks its role, follows +switch-master
    // (failoverDetector) and reconnects on READONLY (a master demoted under it).
    const { username, password, pathname } = new URL(settings.REDIS_URL);
    return new Redis({
      ...options,
      sentinels: parseAddresses(settings.REDIS_SENTINELS),
      name: settings.REDIS_SENTINEL_NAME,
      role: "master",
      failoverDetector: true,
      sentinelRetryStrategy: (attempt: number) => Math.min(100 * attempt, 1_000),
      reconnectOnError: (error: Error) => (error.message.startsWith("READONLY") ? 1 : false),
      ...(username ? { username: decodeURIComponent(username) } : {}),
      ...(password ? { password: decodeURIComponent(password) } : {}),
      db: Number(pathname.slice(1) || 0),
    });
  }
  return new Redis(settings.REDIS_URL, options);
}

const control = globalSingleton<RedisClient>("sluiceRedis", () => createRedis());

/** The process-wide control-plane client (not for SUBSCRIBE: that needs its own connection; not for checks: see lib/enforce). */
export function redis(): RedisClient {
  return control.get();
}

export async function closeRedis(): Promise<void> {
  const client = control.peek();
  control.set(undefined);
  if (client) await client.quit().catch(() => client.disconnect());
}
