import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb } from "@/lib/control/data/db";
import { storedRows, writeLevel } from "@/lib/control/data/usage/stored-rows";
import { partitionSizes } from "@/lib/control/data/usage/partitions";
import { closeRedis } from "@/lib/shared/redis/redis";
import { queryUsage, type UsageRequest } from "@/lib/usage/read/api-series";
import { dashboardData } from "@/lib/usage/read/dashboard";
import { UsageRollup } from "@/lib/usage/store/rollup";
import type { Outcome } from "@/lib/usage/types";
import {
  connect,
  contextAt,
  createTenant,
  HOUR,
  NS,
  recorderFor,
  SYSTEM,
  TestClock,
  type TestTenant,
  testRollup,
} from "./setup";

// Recording, flushing and the minute rollup against real Redis and PostgreSQL, across a
// minute boundary driven by an injected clock. Read back through the code the admin API
// (queryUsage) and the usage page (dashboardData) run.

const client = connect();
let tenant: TestTenant;
// a minute boundary 10 minutes ago: old enough to be complete, young enough for Redis
const boundary = Math.floor(Date.now() / 60_000) * 60_000 - 10 * 60_000;

function rollup(owner: string, now: number): UsageRollup {
  return testRollup({
    client,
    owner,
    clock: () => now,
  });
}

beforeAll(async () => {
  tenant = await createTenant("rec", ["backend", "mobile"]);
  const clock = new TestClock(boundary - 1_500);
  const recorder = recorderFor(client, clock);
  const send = (
    n: number,
    keyId: string | null,
    route: string | null,
    outcome: Outcome,
    subject: string | null = null,
  ) => {
    for (let i = 0; i < n; i++) recorder.record({ tenantId: tenant.id, keyId, route, outcome, subject });
  };
  // before the boundary: minute A
  send(7, tenant.keys.backend ?? null, "GET /v1/items/:id", "allowed");
  send(3, tenant.keys.backend ?? null, "GET /v1/items/:id", "rejected", "203.0.113.9");
  send(2, null, null, "degraded");
  await recorder.flush();
  // after the boundary: minute B, flushed in two batches
  clock.ms = boundary + 500;
  send(5, tenant.keys.mobile ?? null, "POST /v1/search", "allowed");
  send(4, tenant.keys.mobile ?? null, "POST /v1/search", "shadow_rejected");
  await recorder.flush();
  clock.ms = boundary + 2_500;
  send(6, tenant.keys.mobile ?? null, "POST /v1/search", "rejected", "198.51.100.7");
  await recorder.stop();
  expect(recorder.stats()).toMatchObject({ recorded: 27, failedFlushes: 0, droppedEvents: 0 });
});

afterAll(async () => {
  client.disconnect();
  await closeRedis();
  await closeDb();
});

const query = (stepMs: number, extra: Partial<UsageRequest> = {}): UsageRequest => ({
  tenant: tenant.slug,
  fromMs: boundary - 60_000,
  toMs: boundary + 60_000,
  stepMs,
  ...extra,
});
const at = (iso: string) => Date.parse(iso);

describe("usage recording and rollup", () => {
  it("serves exact per-second counts from Redis before any rollup", async () => {
    const series = await queryUsage(SYSTEM, query(1_000), contextAt(client, boundary + 5 * 60_000));
    const point = (t: number) => series.points.find((p) => at(p.t) === t);
    expect(point(boundary - 2_000)).toMatchObject({ allowed: 7, rejected: 3, degraded: 2 });
    expect(point(boundary)).toMatchObject({ allowed: 5, shadowRejected: 4, rejected: 0 });
    expect(point(boundary + 2_000)).toMatchObject({ rejected: 6 });
    expect(series.resolutionMs).toBe(1_000);
  });

  it("two rollups started at once write each minute once, with exact totals", async () => {
    const now = boundary + 2 * 60_000;
    const runs = await Promise.all([rollup("a", now).runOnce(), rollup("b", now).runOnce()]);
    expect(runs.filter((r) => r.held)).toHaveLength(1);
    // again, as a new holder after a restart: same absolute values, nothing doubled
    await client.del(`${NS}{u:job}:lease`);
    await rollup("c", now).runOnce();
    const rows = await storedRows("minute", [tenant.id]);
    const plain = rows.map((r) => ({
      minute: r.t,
      key: r.keyId,
      route: r.route,
      counts: [r.allowed, r.rejected, r.shadowRejected, r.degraded].map(Number),
    }));
    expect(plain).toEqual(
      [
        { minute: boundary - 60_000, key: "", route: "", counts: [0, 0, 0, 2] },
        {
          minute: boundary - 60_000,
          key: tenant.keys.backend,
          route: "GET /v1/items/:id",
          counts: [7, 3, 0, 0],
        },
        { minute: boundary, key: tenant.keys.mobile, route: "POST /v1/search", counts: [5, 6, 4, 0] },
      ].sort((a, b) => a.minute - b.minute || a.key!.localeCompare(b.key!)),
    );
  });

  it("after the rollup, minute queries read PostgreSQL and still give exact counts, by key and route", async () => {
    // drop the Redis seconds: what remains must come from the minute rows
    for (const m of [boundary / 60_000 - 1, boundary / 60_000])
      await client.del(`${NS}{u:${tenant.id}}:s:${m}`);
    const ctx = contextAt(client, boundary + 3 * 60_000);
    const series = await queryUsage(SYSTEM, query(60_000), ctx);
    expect(series.resolutionMs).toBe(60_000);
    expect(series.points.map((p) => [at(p.t), p.allowed, p.rejected, p.shadowRejected, p.degraded])).toEqual([
      [boundary - 60_000, 7, 3, 0, 2],
      [boundary, 5, 6, 4, 0],
    ]);
    // the usage page's 24 h view reads minute rows: the same totals by key and by route
    const page = await dashboardData(SYSTEM, { tenant: tenant.slug, range: "24h" }, ctx);
    expect(page.source).toBe("minutes");
    expect(page.breakdown.rows.map((r) => [r.name, r.allowed, r.rejected, r.degraded])).toEqual([
      ["mobile", 5, 6, 0],
      ["backend", 7, 3, 0],
      ["(no key)", 0, 0, 2],
    ]);
    expect(page.byRoute.map((r) => r.name)).toEqual(["POST /v1/search", "GET /v1/items/:id", "(no route)"]);
    const mobileOnly = await queryUsage(
      SYSTEM,
      query(60_000, { key: "mobile", route: "POST /v1/search" }),
      ctx,
    );
    expect(mobileOnly.points.reduce((s, p) => s + p.rejected, 0)).toBe(6);
    const mobilePage = await dashboardData(SYSTEM, { tenant: tenant.slug, key: "mobile", range: "24h" }, ctx);
    expect(mobilePage.breakdown).toMatchObject({
      by: "route",
      rows: [{ name: "POST /v1/search", rejected: 6 }],
    });
    expect(mobilePage.series.reduce((s, p) => s + p.allowed, 0)).toBe(5);
  });

  it("retention drops whole partitions past their retention, keeps the rest", async () => {
    const now = Date.now();
    const day = 24 * HOUR;
    const row = {
      tenantId: tenant.id,
      keyId: "",
      route: "retention",
      allowed: 1,
      rejected: 0,
      shadowRejected: 0,
      degraded: 0,
      leasesAcquired: 0,
      leasesReleased: 0,
      leasesExpired: 0,
    };
    const minute = (ms: number) => Math.floor(ms / 60_000) * 60_000;
    await writeLevel("minute", minute(now - 9 * day), [row]);
    await writeLevel("minute", minute(now - 5 * day), [row]);
    await writeLevel("hour", Math.floor((now - 120 * day) / HOUR) * HOUR, [row]);
    await writeLevel("hour", Math.floor((now - 60 * day) / HOUR) * HOUR, [row]);
    const sweeper = testRollup({
      client,
      ns: `${NS}sweep:`,
      owner: "sweeper",
      clock: () => now,
      minutesRetentionMs: 7 * day,
      hoursRetentionMs: 90 * day,
      // other tests' fixtures keep their pairs (this test is about the tiers)
      pairMinutesRetentionMs: 7 * day,
      retentionEveryMs: 0,
    });
    const run = await sweeper.runOnce();
    expect(run.droppedPartitions).toBeGreaterThanOrEqual(2);
    expect(run.partitionFailures).toBe(0);
    const leftHours = (await storedRows("hour", [tenant.id])).filter((r) => r.route === "retention");
    expect(leftHours.map((r) => r.t)).toEqual([Math.floor((now - 60 * day) / HOUR) * HOUR]);
    const kept = (await storedRows("minute", [tenant.id], "totals")).filter((r) => r.t < now - 4 * day);
    expect(kept.map((r) => r.t)).toEqual([minute(now - 5 * day)]);
    // nothing left older than the retention, and the partitions ahead exist
    const parts = await partitionSizes();
    const ends = (table: string) => parts.filter((p) => p.table === table).map((p) => p.start);
    expect(Math.min(...ends("UsageMinute"))).toBeGreaterThanOrEqual(now - 8 * day);
    expect(Math.max(...ends("UsageMinute"))).toBeGreaterThan(now + day);
  });
});
