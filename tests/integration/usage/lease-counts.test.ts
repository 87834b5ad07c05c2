import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb } from "@/lib/control/data/db";
import { importConfig } from "@/lib/control/data/import-config";
import { storedRows } from "@/lib/control/data/usage/stored-rows";
import { writeHour } from "@/lib/control/data/usage/rollup-writer";
import { closeRedis } from "@/lib/shared/redis/redis";
import { queryUsage } from "@/lib/usage/read/api-series";
import { dashboardData } from "@/lib/usage/read/dashboard";
import type { RowContext } from "@/lib/usage/read/rows";
import { UsageRecorder } from "@/lib/usage/record/recorder";
import type { Counts } from "@/lib/usage/types";
import { connect, createTenant, HOUR, NS, SYSTEM, TestClock, type TestTenant, testRollup } from "./setup";

// Lease counts of concurrency limits (docs/dashboard.md, Leases) through a real recorder on
// a test clock, Redis, the rollup and PostgreSQL, read back through the usage API's code
// (queryUsage) and the usage page's (dashboardData): five leases taken, two released in
// time, three left to expire in the next minute.

const client = connect();
// a namespace of its own: this file's rollup watermarks start where its minutes are
const ns = `${NS}lease:`;
let tenant: TestTenant;
// a minute boundary 10 minutes ago: complete, and still in Redis
const boundary = Math.floor(Date.now() / 60_000) * 60_000 - 10 * 60_000;
const ROUTE = "POST /v1/jobs";
const takenAt = boundary - 20_000;
const dueAt = takenAt + 30_000; // 10 s into the next minute

const ctxAt = (now: number): RowContext => ({ client, ns, now, secondsRetentionMs: HOUR });

beforeAll(async () => {
  tenant = await createTenant("lease", ["backend"]);
  await importConfig(SYSTEM, {
    tenants: [
      {
        slug: tenant.slug,
        name: "Usage test lease",
        plan: "free",
        limits: [{ name: "in-flight", by: "key", algorithm: "concurrency", limit: 10, window: "30s" }],
        keys: [{ name: "backend", limits: [] }],
      },
    ],
  });
  const clock = new TestClock(takenAt);
  const recorder = new UsageRecorder({
    redis: () => client,
    ns,
    enabled: true,
    secondsRetentionMs: HOUR,
    clock: clock.now,
  });
  const keyId = tenant.keys.backend ?? null;
  for (let i = 0; i < 5; i++)
    recorder.record({
      tenantId: tenant.id,
      keyId,
      route: ROUTE,
      outcome: "allowed",
      subject: null,
      leaseDueMs: dueAt,
    });
  // a plain check beside them: counted, no lease
  recorder.record({ tenantId: tenant.id, keyId, route: ROUTE, outcome: "rejected", subject: null });
  await recorder.flush();
  clock.ms = takenAt + 5_000;
  for (let i = 0; i < 2; i++)
    recorder.leaseReleased({ tenantId: tenant.id, keyId, route: ROUTE, dueMs: dueAt });
  await recorder.stop();
  expect(recorder.stats()).toMatchObject({ failedFlushes: 0, droppedEvents: 0 });
});

afterAll(async () => {
  client.disconnect();
  await closeRedis();
  await closeDb();
});

const request = (stepMs: number, key?: string) => ({
  tenant: tenant.slug,
  key,
  fromMs: boundary - 60_000,
  toMs: boundary + 60_000,
  stepMs,
});

type LeaseCounts = Pick<Counts, "leasesAcquired" | "leasesReleased" | "leasesExpired">;

/** [acquired, released, expired] summed over the points. */
const leases = (points: readonly LeaseCounts[]): number[] =>
  points.reduce<[number, number, number]>(
    ([a, r, e], p) => [a + p.leasesAcquired, r + p.leasesReleased, e + p.leasesExpired],
    [0, 0, 0],
  );

describe("lease counts", () => {
  it("serves acquired, released and expired per second from Redis, expiries once their time has come", async () => {
    const series = await queryUsage(SYSTEM, request(1_000), ctxAt(boundary + 5 * 60_000));
    const at = (t: number) => series.points.find((p) => Date.parse(p.t) === t);
    expect(at(takenAt)).toMatchObject({ leasesAcquired: 5, allowed: 5, rejected: 1, leasesExpired: 0 });
    expect(at(takenAt + 5_000)).toMatchObject({ leasesReleased: 2, allowed: 0 });
    expect(at(dueAt)).toMatchObject({ leasesExpired: 3, allowed: 0 });
    expect(leases(series.points)).toEqual([5, 2, 3]);
    // read before their expiry, the three still held are not expired (yet)
    const early = await queryUsage(SYSTEM, request(1_000), ctxAt(dueAt - 1_000));
    expect(leases(early.points)).toEqual([5, 2, 0]);
    // per key like the other counts
    const byKey = await queryUsage(SYSTEM, request(1_000, "backend"), ctxAt(boundary + 5 * 60_000));
    expect(leases(byKey.points)).toEqual([5, 2, 3]);
  });

  it("the rollup stores them per minute and hour; minute reads then come from PostgreSQL", async () => {
    const rollup = testRollup({
      client,
      ns,
      owner: "lease-test",
      clock: () => boundary + 2 * 60_000,
      secondsRetentionMs: 15 * 60_000,
    });
    const run = await rollup.runOnce();
    expect(run.held).toBe(true);
    const rows = await storedRows("minute", [tenant.id], "totals");
    expect(rows.map((r) => [r.t, r.leasesAcquired, r.leasesReleased, r.leasesExpired].map(Number))).toEqual([
      [boundary - 60_000, 5, 2, 0],
      [boundary, 0, 0, 3],
    ]);
    // minutes now read from PostgreSQL: the Redis hashes gone, the same counts
    for (const m of [boundary / 60_000 - 1, boundary / 60_000])
      await client.del(`${ns}{u:${tenant.id}}:p:${m}`);
    const series = await queryUsage(SYSTEM, request(60_000), ctxAt(boundary + 3 * 60_000));
    expect(
      series.points.map((p) => [Date.parse(p.t), p.leasesAcquired, p.leasesReleased, p.leasesExpired]),
    ).toEqual([
      [boundary - 60_000, 5, 2, 0],
      [boundary, 0, 0, 3],
    ]);
    // an hour's rollup sums them like the other counts
    const hour = Math.floor((boundary - 60_000) / HOUR) * HOUR;
    await writeHour(hour, () => Promise.resolve(true));
    if (Math.floor(boundary / HOUR) * HOUR !== hour)
      await writeHour(hour + HOUR, () => Promise.resolve(true));
    const hours = await storedRows("hour", [tenant.id], "totals");
    expect(leases(hours)).toEqual([5, 2, 3]);
  });

  it("the usage page draws leases for a tenant with a concurrency limit only", async () => {
    const page = await dashboardData(
      SYSTEM,
      { tenant: tenant.slug, range: "24h" },
      ctxAt(boundary + 3 * 60_000),
    );
    expect(page.leaseChart).toBe(true);
    expect(leases(page.series)).toEqual([5, 2, 3]);
    const plain = await createTenant("no-lease", []);
    const other = await dashboardData(
      SYSTEM,
      { tenant: plain.slug, range: "1h" },
      ctxAt(boundary + 3 * 60_000),
    );
    expect(other.leaseChart).toBe(false);
  });
});
