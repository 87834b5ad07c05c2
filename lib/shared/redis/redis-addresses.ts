// Redis node lists as the settings give them (REDIS_CLUSTER_NODES, REDIS_SENTINELS), for
// ioredis (redis.ts) and the check path's own client (lib/check/limiter/lean-redis).

export interface RedisAddress {
  host: string;
  port: number;
}

/** "host:port,host:port" as addresses. */
export function parseAddresses(list: string): RedisAddress[] {
  return list.split(",").map((node) => {
    const at = node.lastIndexOf(":");
    return { host: node.slice(0, at) || "127.0.0.1", port: Number(node.slice(at + 1)) };
  });
}
