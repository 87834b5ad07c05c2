import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb } from "@/lib/control/data/db";
import { storedRows } from "@/lib/control/data/usage/stored-rows";
import { closeRedis } from "@/lib/shared/redis/redis";
import { queryUsage } from "@/lib/usage/read/api-series";
import { jobKeys } from "@/lib/usage/keys";
import { UsageRecorder } from "@/lib/usage/record/recorder";
import { UsageRollup } from "@/lib/usage/store/rollup";
import { connect, createTenant, HOUR, NS, SYSTEM, TestClock, type TestTenant, testRollup } from "./setup";

// A rollup that stopped while traffic went on catches up, a few minutes a run, while the
// traffic continues, and the totals are exact afterwards: every minute, the hour it
// completed, and what the admin API reads back.

const client = connect();
const ns = `${NS}catchup:`;
const MINUTE = 60_000;
// 20 minutes of traffic across an hour boundary (10 minutes in), all complete by now
const start = Math.floor(Date.now() / HOUR) * HOUR - HOUR - 10 * MINUTE;
const MINUTES = 20;
const STOPPED = 12;
let tenant: TestTenant;
const clock = new TestClock(start);
let recorder: UsageRecorder;
/** what was sent per minute (allowed, rejected) */
const sent = new Map<number, [number, number]>();

async function trafficOf(m: number): Promise<void> {
  const minute = start + m * MINUTE;
  const events: Array<[string | null, string, "allowed" | "rejected"]> = [
    [tenant.keys.backend ?? null, "GET /v1/items/:id", "allowed"],
    [tenant.keys.mobile ?? null, "POST /v1/search", "rejected"],
    [null, "GET /v1/items/:id", "allowed"],
  ];
  let [allowed, rejected] = [0, 0];
  for (let second = 0; second < 60; second += 7) {
    clock.ms = minute + second * 1_000;
    for (const [i, [keyId, route, outcome]] of events.entries()) {
      const n = 1 + ((m + i + second) % 4);
      for (let k = 0; k < n; k++)
        recorder.record({ tenantId: tenant.id, keyId, route, outcome, subject: null });
      if (outcome === "allowed") allowed += n;
      else rejected += n;
    }
    await recorder.flush();
  }
  sent.set(minute, [allowed, rejected]);
}

function rollupAt(now: number): UsageRollup {
  return testRollup({
    client,
    ns,
    owner: "catch-up",
    clock: () => now,
    minutesRetentionMs: 7 * 24 * HOUR,
    hoursRetentionMs: 90 * 24 * HOUR,
    maxMinutesPerRun: 2,
  });
}

beforeAll(async () => {
  tenant = await createTenant("catchup", ["backend", "mobile"]);
  recorder = new UsageRecorder({
    redis: () => client,
    ns,
    enabled: true,
    secondsRetentionMs: HOUR,
    clock: clock.now,
  });
  // the rollup had written everything before `start`, then stopped
  await client.set(jobKeys(ns).minutes, String(start / MINUTE));
  await client.set(jobKeys(ns).hours, String(Math.floor(start / HOUR)));
}, 60_000);

afterAll(async () => {
  await recorder.stop();
  const keys = jobKeys(ns);
  await client.del(keys.minutes, keys.hours, keys.days, keys.lease, keys.fence);
  client.disconnect();
  await closeRedis();
  await closeDb();
});

describe("a rollup that fell behind", () => {
  it("catches up under traffic, two minutes a run, with exact totals afterwards", async () => {
    for (let m = 0; m < STOPPED; m++) await trafficOf(m);
    // back: each run rolls up two minutes while a new minute of traffic arrives
    let runs = 0;
    for (let m = STOPPED; m < MINUTES; m++) {
      await trafficOf(m);
      const run = await rollupAt(start + (m + 1) * MINUTE + 10_000).runOnce();
      expect(run).toMatchObject({ held: true, partitionFailures: 0 });
      expect(run.minutes).toBe(2);
      runs++;
    }
    expect(Number(await client.get(jobKeys(ns).minutes))).toBeLessThan(start / MINUTE + MINUTES);
    // traffic over: the rest in a few more runs
    const end = start + MINUTES * MINUTE + 10_000;
    while (Number(await client.get(jobKeys(ns).minutes)) < start / MINUTE + MINUTES && runs < 40) {
      await rollupAt(end).runOnce();
      runs++;
    }
    expect(Number(await client.get(jobKeys(ns).minutes))).toBe(start / MINUTE + MINUTES);

    // every minute's tenant total as sent
    const totals = await storedRows("minute", [tenant.id], "totals");
    expect(new Map(totals.map((r) => [r.t, [r.allowed, r.rejected]]))).toEqual(sent);
    // the hour that ended 10 minutes in: the sum of those minutes, its pairs included
    const hourAt = start + 10 * MINUTE - HOUR;
    const firstTen = [...sent].filter(([t]) => t < start + 10 * MINUTE);
    const hourTotal = (await storedRows("hour", [tenant.id], "totals")).find((r) => r.t === hourAt);
    expect([hourTotal?.allowed, hourTotal?.rejected]).toEqual([
      firstTen.reduce((s, [, [a]]) => s + a, 0),
      firstTen.reduce((s, [, [, r]]) => s + r, 0),
    ]);
    const hourPairs = (await storedRows("hour", [tenant.id])).filter((r) => r.t === hourAt);
    expect(hourPairs).toHaveLength(3);
    // and read back as the admin API does, from PostgreSQL only (everything is rolled up)
    const ctx = { client, ns, now: end + 5 * MINUTE, secondsRetentionMs: HOUR };
    const series = await queryUsage(
      SYSTEM,
      { tenant: tenant.slug, fromMs: start, toMs: start + MINUTES * MINUTE, stepMs: MINUTE },
      ctx,
    );
    expect(new Map(series.points.map((p) => [Date.parse(p.t), [p.allowed, p.rejected]]))).toEqual(sent);
  }, 120_000);
});
