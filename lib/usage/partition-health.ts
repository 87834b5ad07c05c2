import "server-only";
import type { RedisClient } from "@/lib/shared/redis/redis";
import { jobKeys } from "@/lib/usage/keys";
import { registry } from "@/lib/check/check-metrics";

// Partitions of the usage tables that the rollup failed to create. The rollup runs in the
// app process and /api/metrics is served by the front, so the count lives in Redis next to
// the rollup's watermarks; every process copies it into its gauge (refreshPartitionHealth).
// A missing partition makes the rollup's writes into it fail and retry: counted here, warned
// in the log, and shown by the dashboard's status line while it is still missing (a later
// run that creates it clears it), never dropped silently.

export interface PartitionHealth {
  failures: number;
  lastError: string | null;
  /** when the last failure happened, epoch ms */
  lastAt: number | null;
  /** partitions whose last attempt failed ("UsageMinute@<start ms>"), none once created */
  missing: string[];
}

/** Hash fields naming a partition whose last creation failed. */
const MISSING = "missing:";

const failuresGauge = registry
  .gauge(
    "sluice_usage_partition_failures",
    "Usage table partitions the rollup failed to create (since the Redis data began).",
  )
  .cell();

const missingGauge = registry
  .gauge(
    "sluice_usage_partitions_missing",
    "Usage table partitions whose creation failed and has not succeeded since.",
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
    .hset(key, "lastError", text, "lastAt", String(now), `${MISSING}${partition}`, String(now))
    .exec();
}

/** The partition exists now: no longer reported missing. */
export async function clearPartitionFailure(
  client: RedisClient,
  ns: string,
  partition: string,
): Promise<void> {
  await client.hdel(jobKeys(ns).partitions, `${MISSING}${partition}`);
}

export async function readPartitionHealth(client: RedisClient, ns: string): Promise<PartitionHealth> {
  const hash = await client.hgetall(jobKeys(ns).partitions);
  return {
    failures: Number(hash.failures ?? 0),
    lastError: hash.lastError ?? null,
    lastAt: hash.lastAt === undefined ? null : Number(hash.lastAt),
    missing: Object.keys(hash)
      .filter((field) => field.startsWith(MISSING))
      .map((field) => field.slice(MISSING.length))
      .sort(),
  };
}

/** Copies the shared count into this process's gauge (read on /api/metrics). */
export async function refreshPartitionHealth(client: RedisClient, ns: string): Promise<PartitionHealth> {
  const health = await readPartitionHealth(client, ns);
  failuresGauge.value = health.failures;
  missingGauge.value = health.missing.length;
  return health;
}
