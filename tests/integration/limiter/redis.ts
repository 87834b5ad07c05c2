import { Cluster, Redis } from "ioredis";
import type { RedisClient } from "@/lib/shared/redis/redis";

// Connections for the limiter tests: REDIS_CLUSTER_NODES (host:port,...) when set, else
// REDIS_URL (default redis://127.0.0.1:63799). Tests only add keys under their own tenant
// ids (RUN below) and never flush a shared Redis.

export const RUN = `t${Date.now().toString(36)}${process.pid.toString(36)}`;

export function clusterNodes(): Array<{ host: string; port: number }> | null {
  const nodes = process.env.REDIS_CLUSTER_NODES;
  if (!nodes) return null;
  return nodes.split(",").map((node) => {
    const [host = "127.0.0.1", port = "6379"] = node.split(":");
    return { host, port: Number(port) };
  });
}

export function redisUrl(): string {
  return process.env.REDIS_URL ?? "redis://127.0.0.1:63799";
}

/** `autoPipelining: false` as on the check path, where a call is written in the turn it is made. */
export function connect(autoPipelining = true): RedisClient {
  const nodes = clusterNodes();
  if (nodes)
    return new Cluster(nodes, { redisOptions: { protocol: 2 }, enableAutoPipelining: autoPipelining });
  return new Redis(redisUrl(), { protocol: 2, enableAutoPipelining: autoPipelining });
}

/** The masters to run a command on each of (SCRIPT FLUSH, key scans). */
export function masters(redis: RedisClient): Redis[] {
  return redis instanceof Cluster ? redis.nodes("master") : [redis];
}

/** Every key of a tenant (under its hash tag: on a Cluster they sit on one master). */
export async function tenantKeys(redis: RedisClient, tenant: string): Promise<string[]> {
  const found: string[] = [];
  for (const node of masters(redis)) found.push(...(await node.keys(`{t:${tenant}}:*`)));
  return found;
}
