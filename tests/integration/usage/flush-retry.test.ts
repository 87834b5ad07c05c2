import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pairsKey } from "@/lib/usage/keys";
import { pairEntries } from "@/lib/usage/pair-series";
import { UsageRecorder } from "@/lib/usage/record/recorder";
import { RETRY_MS } from "@/lib/usage/record/unsent-units";
import type { RedisClient } from "@/lib/shared/redis/redis";
import { freePort, startRedis } from "../limiter/throwaway-redis";
import { waitFor } from "@/tests/wait-for";
import { NS, TestClock } from "./setup";

// A usage flush that fails loses nothing and counts nothing twice: each tenant's counts are
// one transaction with a marker, kept and sent again until they land (up to a minute), and a
// retry whose first try did land after all (its answer lost) finds the marker and stops. On
// a Redis of this file's own: it is stopped and paused.

let port = 0;
let dir = "";
let admin: Redis;
const TENANTS = ["t-one", "t-two", "t-three"];
const PER_TENANT = 40;
const minute = Math.floor(Date.now() / 60_000) - 5;

function client(commandTimeout = 1_000): Redis {
  // as the recorder's own: no offline queue, so a Redis that is away fails a flush at once
  const redis = new Redis({
    port,
    protocol: 2,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout,
  });
  redis.on("error", () => undefined);
  return redis;
}

function recorder(ns: string, redis: () => RedisClient, clock: TestClock): UsageRecorder {
  const options = { redis, ns, enabled: true, secondsRetentionMs: 3_600_000, clock: clock.now };
  return new UsageRecorder({ ...options, subjectSeries: false, waitForReady: false });
}

function record(target: UsageRecorder): void {
  for (const tenantId of TENANTS)
    for (let i = 0; i < PER_TENANT; i++)
      target.record({ tenantId, keyId: "k1", route: "GET /x", outcome: "allowed", subject: null });
}

/** Every decision of a tenant's minute as Redis holds it. */
async function counted(ns: string, tenantId: string): Promise<number> {
  const hash = await admin.hgetall(pairsKey(ns, tenantId, minute));
  let total = 0;
  for (const value of Object.values(hash)) for (const [, count] of pairEntries(value)) total += count;
  return total;
}

beforeAll(async () => {
  port = await freePort();
  dir = mkdtempSync(join(tmpdir(), "sluice-flush-retry-"));
  await startRedis(port, dir);
  admin = client();
  await waitFor(() => admin.status === "ready", "the test's Redis");
});

afterAll(async () => {
  await admin.call("SHUTDOWN", "NOSAVE").catch(() => undefined);
  admin.disconnect();
  rmSync(dir, { recursive: true, force: true });
});

describe("usage flush retries", () => {
  it("counts a flush could not write are sent again with the next and land once", async () => {
    const ns = `${NS}retry-down:`;
    const clock = new TestClock(minute * 60_000 + 10_000);
    const away = new Redis({ port: await freePort(), lazyConnect: true, enableOfflineQueue: false });
    away.on("error", () => undefined);
    let target: RedisClient = away;
    const usage = recorder(ns, () => target, clock);
    record(usage);
    await usage.flush();
    expect(usage.stats()).toMatchObject({ failedFlushes: 1, droppedEvents: 0, pendingEvents: 120 });
    for (const tenantId of TENANTS) expect(await counted(ns, tenantId)).toBe(0);

    target = admin;
    clock.ms += 2_000;
    await usage.flush();
    for (const tenantId of TENANTS) expect(await counted(ns, tenantId)).toBe(PER_TENANT);
    expect(usage.stats()).toMatchObject({
      retriedUnits: 3,
      droppedEvents: 0,
      pendingEvents: 0,
      recorded: 120,
    });
    // nothing more is sent: the units landed
    await usage.flush();
    expect(usage.stats().retriedUnits).toBe(3);
    away.disconnect();
  });

  it("a flush of 600 tenants goes in slices of 250, every tenant's counts landing", async () => {
    const ns = `${NS}retry-slices:`;
    const clock = new TestClock(minute * 60_000 + 15_000);
    const usage = recorder(ns, () => admin, clock);
    const tenants = Array.from({ length: 600 }, (_, i) => `t-${i}`);
    for (const tenantId of tenants)
      usage.record({ tenantId, keyId: "k1", route: "GET /x", outcome: "allowed", subject: null });
    await usage.flush();
    expect(usage.stats()).toMatchObject({ failedFlushes: 0, pendingEvents: 0, recorded: 600 });
    const counts = await Promise.all(tenants.map((tenantId) => counted(ns, tenantId)));
    expect(counts.filter((n) => n === 1)).toHaveLength(600);
  });

  it("a unit whose answer was lost but which landed is not written again", async () => {
    const ns = `${NS}retry-lost:`;
    const clock = new TestClock(minute * 60_000 + 20_000);
    const slow = client(200);
    await waitFor(() => slow.status === "ready", "the recorder's connection");
    const usage = recorder(ns, () => slow, clock);
    record(usage);
    // writes wait out the pause, then run: the flush gave up after 200 ms, the units land later
    await admin.call("CLIENT", "PAUSE", "1500", "WRITE");
    await usage.flush();
    expect(usage.stats()).toMatchObject({ failedFlushes: 1, pendingEvents: 120 });
    await waitFor(async () => (await counted(ns, "t-three")) === PER_TENANT, "the paused units to land");
    clock.ms += 2_000;
    await usage.flush();
    for (const tenantId of TENANTS) expect(await counted(ns, tenantId)).toBe(PER_TENANT);
    expect(usage.stats()).toMatchObject({ retriedUnits: 3, droppedEvents: 0, pendingEvents: 0 });
    slow.disconnect();
  });

  it("counts still unwritten after the retry minute are dropped and counted, never held on", async () => {
    const ns = `${NS}retry-drop:`;
    const clock = new TestClock(minute * 60_000 + 30_000);
    const away = new Redis({ port: await freePort(), lazyConnect: true, enableOfflineQueue: false });
    away.on("error", () => undefined);
    const usage = recorder(ns, () => away, clock);
    record(usage);
    await usage.flush();
    clock.ms += RETRY_MS / 2;
    await usage.flush();
    expect(usage.stats()).toMatchObject({ droppedEvents: 0, pendingEvents: 120 });
    clock.ms += RETRY_MS / 2 + 1_000;
    await usage.flush();
    expect(usage.stats()).toMatchObject({ droppedEvents: 120, pendingEvents: 0, failedFlushes: 3 });
    await usage.flush(); // nothing left to send
    expect(usage.stats().failedFlushes).toBe(3);
    away.disconnect();
  });
});
