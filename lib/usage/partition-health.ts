import "server-only";
import type { RedisClient } from "@/lib/shared/redis/redis";
import { jobKeys } from "@/lib/usage/keys";
import { registry } from "@/lib/check/check-metrics";

// Partitions of the usage tables that the rollup failed to create. The rollup runs in the
// app process and /api/metrics is served by the front, so the count lives in Redis next to
// the rollup's watermarks; every process copies it into its gauge (refreshPartitionHealth).
// A missing partition makes the rollup's writes into it fail and retry: counted here, warned
// in the log, and shown by the usage page's status line, never dropped silently.

export interface PartitionHealth {
  failures: number;
  lastError: string | null;
  /** when the last failure happened, epoch ms */
  lastAt: number | null;
}

const failuresGauge = registry
  .gauge(
    "sluice_usage_partition_failures",
    "Usage table partitions the rollup failed to create (since the Redis data began).",
  )
  .cell();

export async function recordPartitionFailure(
  client: RedisClient,
  ns: string,
  partition: string,
  error: unknown,
  now: number = Date.now(),
): Promise<void> {
  const text = `${partition}: ${error instanceof Error ? error.message : String(error)}`.slice(0, 500);
  console.warn(`[sluice] usage rollup: could not create partition ${text}`);
  const key = jobKeys(ns).partitions;
  await client
    .pipeline()
    .hincrby(key, "failures", 1)
    .hset(key, "lastError", text, "lastAt", String(now))
    .exec();
}

export async function readPartitionHealth(client: RedisClient, ns: string): Promise<PartitionHealth> {
  const hash = await client.hgetall(jobKeys(ns).partitions);
  return {
    failures: Number(hash.failures ?? 0),
    lastError: hash.lastError ?? null,
    lastAt: hash.lastAt === undefined ? null : Number(hash.lastAt),
  };
}

/** Copies the shared count into this process's gauge (read on /api/metrics). */
export async function refreshPartitionHealth(client: RedisClient, ns: string): Promise<PartitionHealth> {
  const health = await readPartitionHealth(client, ns);
  failuresGauge.value = health.failures;
  return health;
}
