import { Cluster, Redis } from "ioredis";
import type { Principal } from "@/lib/shared/principal";
import { createApiKey } from "@/lib/control/data/api-keys";
import { importConfig } from "@/lib/control/data/import-config";
import type { RedisClient } from "@/lib/shared/redis/redis";
import type { RowContext } from "@/lib/usage/read/rows";
import { UsageRecorder } from "@/lib/usage/record/recorder";
import { UsageRollup, type RollupOptions } from "@/lib/usage/store/rollup";
import type { UsageEvent } from "@/lib/usage/types";

// Fixtures for the usage tests: a namespace of their own in Redis (so the running apps'
// rollup never touches the test's keys), fresh tenants with unique slugs, a movable clock.

export const SYSTEM: Principal = { kind: "system", label: "test" };
export const RUN = `u${Date.now().toString(36)}${process.pid.toString(36)}`;
export const NS = `test:${RUN}:`;
export const HOUR = 3_600_000;

/** The test Redis, or the test cluster when REDIS_CLUSTER_NODES names one (npm test runs both). */
export function connect(): RedisClient {
  const nodes = process.env.REDIS_CLUSTER_NODES;
  if (nodes) {
    return new Cluster(
      nodes.split(",").map((node) => ({ host: node.split(":")[0], port: Number(node.split(":")[1]) })),
      { redisOptions: { protocol: 2 } },
    );
  }
  return new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:63799", { protocol: 2 });
}

export interface TestTenant {
  id: string;
  slug: string;
  keys: Record<string, string>;
}

/** A tenant on plan free with the given keys; returns ids. */
export async function createTenant(suffix: string, keyNames: string[]): Promise<TestTenant> {
  const slug = `${RUN}-${suffix}`.toLowerCase();
  await importConfig(SYSTEM, { tenants: [{ slug, name: `Usage test ${suffix}`, plan: "free" }] });
  const keys: Record<string, string> = {};
  for (const name of keyNames) keys[name] = (await createApiKey(SYSTEM, slug, { name })).id;
  const { db } = await import("@/lib/control/data/db");
  const tenant = await db().tenant.findUniqueOrThrow({ where: { slug }, select: { id: true } });
  return { id: tenant.id, slug, keys };
}

export class TestClock {
  constructor(public ms: number) {}
  readonly now = (): number => this.ms;
}

export function recorderFor(client: RedisClient, clock: TestClock): UsageRecorder {
  return new UsageRecorder({
    redis: () => client,
    ns: NS,
    enabled: true,
    secondsRetentionMs: HOUR,
    clock: clock.now,
  });
}

export function contextAt(client: RedisClient, now: number): RowContext {
  return { client, ns: NS, now, secondsRetentionMs: HOUR };
}

/** How a test records its traffic: `perSecond` events a second from `base` (+ `offsetMs`). */
export interface RecordedPattern {
  base: number;
  seconds: number;
  perSecond: number;
  offsetMs: number;
  /** flushed after every `flushEvery` seconds, and at the end */
  flushEvery: number;
  /** the n-th event of the run */
  event: (n: number) => UsageEvent;
}

/** Records a fixed pattern through a real recorder on a test clock, flushing as it goes. */
export async function recordPattern(client: RedisClient, pattern: RecordedPattern): Promise<void> {
  const clock = new TestClock(pattern.base);
  const recorder = recorderFor(client, clock);
  for (let second = 0; second < pattern.seconds; second++) {
    clock.ms = pattern.base + second * 1_000 + pattern.offsetMs;
    for (let i = 0; i < pattern.perSecond; i++)
      recorder.record(pattern.event(second * pattern.perSecond + i));
    if (second % pattern.flushEvery === pattern.flushEvery - 1) await recorder.flush();
  }
  await recorder.stop();
}

/**
 * A rollup for a test: one hour of seconds, 30 days of minutes and a year of hours unless
 * `options` says otherwise, and no retention pass (the tests that want one run it).
 */
export function testRollup(
  options: Pick<RollupOptions, "client" | "owner" | "clock"> & Partial<RollupOptions>,
): UsageRollup {
  return new UsageRollup({
    ns: NS,
    secondsRetentionMs: HOUR,
    minutesRetentionMs: 30 * 24 * HOUR,
    hoursRetentionMs: 365 * 24 * HOUR,
    retentionEveryMs: Number.MAX_SAFE_INTEGER,
    ...options,
  });
}
