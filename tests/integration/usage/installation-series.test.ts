import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/shared/principal";
import { closeDb, db } from "@/lib/control/data/db";
import { INSTALLATION } from "@/lib/control/data/usage/installation-series";
import { ensurePartition, PARTITION_GRAIN, partitionStart } from "@/lib/control/data/usage/partitions";
import { writeDay, writeHour, type MinuteRow } from "@/lib/control/data/usage/rollup-writer";
import { deleteTenantUsage, storedRows, writeLevel, type Level } from "@/lib/control/data/usage/stored-rows";
import { closeRedis } from "@/lib/shared/redis/redis";
import { acrossTenants } from "@/lib/usage/read/across-tenants";
import { jobKeys } from "@/lib/usage/keys";
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

// The installation's own series (tenant, key and route "*"), against real PostgreSQL and
// Redis: every tenant's own series summed with each minute the rollup writes, also when a
// minute is written a tenant at a time, into its hour and day like any series; the usage
// index draws its chart from it for operators, and a member still gets their tenants' sum.

const client = connect();
const MINUTE = 60_000;
const DAY = 24 * HOUR;
// a minute of three days ago, clear of the other tests' fixtures and of the retention sweep
const M = Math.floor(Date.now() / DAY) * DAY - 3 * DAY + 7 * HOUR + 13 * MINUTE;
const HOUR_OF_M = Math.floor(M / HOUR) * HOUR;
let x: TestTenant;
let y: TestTenant;

const row = (t: TestTenant, route: string, allowed: number, rejected: number): MinuteRow => ({
  tenantId: t.id,
  keyId: Object.values(t.keys)[0] ?? "",
  route,
  allowed,
  rejected,
  shadowRejected: 0,
  degraded: 0,
  leasesAcquired: 0,
  leasesReleased: 0,
  leasesExpired: 0,
});

const member = (t: TestTenant): Principal => ({
  kind: "user",
  id: `u-${t.slug}`,
  email: "member@example.test",
  name: "Member",
  isOperator: false,
  memberships: new Map([[t.id, "viewer" as const]]),
});

/** The installation's row at `t` of `level`, as allowed and rejected. */
async function installationAt(
  level: Level,
  t: number,
): Promise<{ allowed: number; rejected: number } | undefined> {
  const found = (await storedRows(level, [INSTALLATION], "totals")).find((r) => r.t === t);
  return found && { allowed: found.allowed, rejected: found.rejected };
}

beforeAll(async () => {
  x = await createTenant("isx", ["k1"]);
  y = await createTenant("isy", ["k2"]);
  // a tenant at a time, as tests and the bench write: the second write sums both
  await writeLevel("minute", M, [row(x, "GET /a", 10, 2), row(x, "GET /b", 5, 0)]);
  await writeLevel("minute", M, [row(y, "GET /c", 7, 3)]);
});

afterAll(async () => {
  await deleteTenantUsage([x.id, y.id]);
  client.disconnect();
  await closeRedis();
  await closeDb();
});

describe("the installation's series", () => {
  it("is every tenant's minute summed, however the minute was written", async () => {
    expect(await installationAt("minute", M)).toEqual({ allowed: 22, rejected: 5 });
  });

  it("is summed into its hour and its day with the rollup's other series", async () => {
    await ensurePartition("UsageHour", partitionStart(PARTITION_GRAIN.UsageHour, HOUR_OF_M));
    await ensurePartition("UsageDay", partitionStart(PARTITION_GRAIN.UsageDay, M));
    const held = () => Promise.resolve(true);
    await writeHour(HOUR_OF_M, held);
    await writeDay(Math.floor(M / DAY) * DAY, held);
    expect(await installationAt("hour", HOUR_OF_M)).toEqual({ allowed: 22, rejected: 5 });
    expect(await installationAt("day", Math.floor(M / DAY) * DAY)).toEqual({ allowed: 22, rejected: 5 });
    // hours written directly (fixtures) carry it too
    const hour = HOUR_OF_M + 2 * HOUR;
    await writeLevel("hour", hour, [row(x, "GET /a", 100, 0)]);
    await writeLevel("hour", hour, [row(y, "GET /c", 50, 1)]);
    expect(await installationAt("hour", hour)).toEqual({ allowed: 150, rejected: 1 });
  });

  it("draws the usage index's chart for operators; members get their tenants' sum", async () => {
    const ns = `${NS}installation:`;
    const marks = jobKeys(ns);
    // everything up to 10 minutes after M rolled up: the range reads PostgreSQL only
    await client.set(marks.minutes, String(M / MINUTE + 10));
    await client.set(marks.hours, String(HOUR_OF_M / HOUR));
    await client.set(marks.days, String(Math.floor(M / DAY)));
    const ctx = { ...contextAt(client, M + 9 * MINUTE), ns };
    const range = [M - 5 * MINUTE, M + 10 * MINUTE] as const;
    const all = await acrossTenants(SYSTEM, ...range, MINUTE, ctx);
    expect(all.series.find((s) => s.t === M)).toMatchObject({ allowed: 22, rejected: 5 });
    const tenants = new Map(all.byTenant.map((r) => [r.tenant, r]));
    expect(tenants.get(x.slug)).toMatchObject({ allowed: 15, rejected: 2 });
    expect(tenants.get(y.slug)).toMatchObject({ allowed: 7, rejected: 3 });
    const mine = await acrossTenants(member(y), ...range, MINUTE, ctx);
    expect(mine.series.find((s) => s.t === M)).toMatchObject({ allowed: 7, rejected: 3 });
    expect(mine.byTenant.map((r) => r.tenant)).toEqual([y.slug]);
    // the comparison's previous period reads the chart only
    const chart = await acrossTenants(SYSTEM, ...range, MINUTE, ctx, { tenants: false });
    expect(chart.byTenant).toEqual([]);
    expect(chart.series.find((s) => s.t === M)).toEqual(all.series.find((s) => s.t === M));
  });

  it("is written by the rollup with each minute it moves from Redis", async () => {
    const minuteA = Math.floor(Date.now() / MINUTE) * MINUTE - 5 * MINUTE;
    const clock = new TestClock(minuteA + 2_000);
    const recorder = recorderFor(client, clock);
    for (let i = 0; i < 4; i++)
      recorder.record({
        tenantId: x.id,
        keyId: x.keys.k1 ?? null,
        route: "GET /a",
        outcome: "allowed",
        subject: "s",
      });
    recorder.record({
      tenantId: y.id,
      keyId: y.keys.k2 ?? null,
      route: "GET /c",
      outcome: "rejected",
      subject: "s",
    });
    await recorder.stop();
    await testRollup({
      client,
      owner: "installation-test",
      clock: () => minuteA + MINUTE + 9_000,
      minutesRetentionMs: 30 * DAY,
      hoursRetentionMs: 365 * DAY,
    }).runOnce();
    // every tenant's own series of that minute, ours and any other's
    const tenantIds = (await db().tenant.findMany({ select: { id: true } })).map((t) => t.id);
    const own = (await storedRows("minute", tenantIds, "totals")).filter((r) => r.t === minuteA);
    const sum = (k: "allowed" | "rejected") => own.reduce((total, r) => total + r[k], 0);
    expect(own.filter((r) => r.tenantId === x.id || r.tenantId === y.id)).toHaveLength(2);
    expect(await installationAt("minute", minuteA)).toEqual({
      allowed: sum("allowed"),
      rejected: sum("rejected"),
    });
    expect(sum("allowed")).toBeGreaterThanOrEqual(4);
  });
});
