import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, db } from "@/lib/control/data/db";
import { closeRedis } from "@/lib/shared/redis/redis";
import { jobKeys, MINUTE_MS } from "@/lib/usage/keys";
import { UsageRecorder } from "@/lib/usage/record/recorder";
import { UsageRollup } from "@/lib/usage/store/rollup";
import { limitDenials, type LimitDenial } from "@/lib/usage/read/limit-denials";
import { DENIAL_ROWS_CAP, OTHER } from "@/lib/shared/limit-denial";
import type { RowContext } from "@/lib/usage/read/rows";
import { connect, createTenant, HOUR, NS, TestClock, type TestTenant, testRollup } from "./setup";

// The rejections per denying limit reach PostgreSQL with the rollup, so a 24 h read of the
// limit tree's counts covers minutes Redis no longer reads: two tenants' rejections over
// several minutes of an earlier hour, rolled up, read back exactly, each tenant's alone,
// never twice (a minute re-rolled, a minute both stored and still in Redis).

const client = connect();
const ns = `${NS}denials:`;
// minutes 10-16 of the hour that began three hours ago: complete, and summed once rolled up
const start = Math.floor(Date.now() / HOUR) * HOUR - 3 * HOUR + 10 * MINUTE_MS;
const hourStart = start - 10 * MINUTE_MS;
const clock = new TestClock(start);
let recorder: UsageRecorder;
let a: TestTenant;
let b: TestTenant;

/** An answer's JSON naming `name` as the enforce limit that denied (docs/api.md). */
function deniedBy(name: string, level: string, by: string): string {
  const entry = (allowed: boolean, n: string, l: string, y: string) =>
    `{"name":${JSON.stringify(n)},"level":"${l}","by":"${y}","algorithm":"fixed_window","limit":10,` +
    `"windowMs":60000,"remaining":0,"resetMs":1000,"allowed":${allowed},"mode":"enforce"}`;
  return `{"allowed":false,"limits":[${entry(true, "plan-cap", "plan", "tenant")},${entry(false, name, level, by)}]}`;
}

/** What each tenant's rejections were denied by: [keyName | null, route, limit, level, by]. */
const KINDS = [
  ["backend", "GET /v1/items/:id", "per-key", "tenant", "key"],
  [null, "POST /v1/search", "tenant-cap", "tenant", "tenant"],
  ["backend", "POST /v1/search", "per-subject", "tenant", "subject"],
] as const;

/** sent[tenantId] -> field id -> count, as the reads should sum it */
const sent = new Map<string, Map<string, number>>();
const idOf = (d: Omit<LimitDenial, "count">) => JSON.stringify([d.keyId, d.route, d.name, d.level, d.by]);

async function rejectionsIn(m: number, tenant: TestTenant, scale: number): Promise<void> {
  const tally = sent.get(tenant.id) ?? new Map<string, number>();
  sent.set(tenant.id, tally);
  for (let second = 0; second < 60; second += 13) {
    clock.ms = start + m * MINUTE_MS + second * 1_000;
    for (const [i, [keyName, route, name, level, by]] of KINDS.entries()) {
      const keyId = keyName === null ? null : (tenant.keys[keyName] ?? null);
      const n = scale * (1 + ((m + i + second) % 3));
      for (let k = 0; k < n; k++)
        recorder.record({
          tenantId: tenant.id,
          keyId,
          route,
          outcome: "rejected",
          subject: `user-${k}`,
          body: deniedBy(name, level, by),
        });
      const id = idOf({ keyId: keyId ?? "", route, name, level, by });
      tally.set(id, (tally.get(id) ?? 0) + n);
    }
    await recorder.flush();
  }
}

function rollupAt(now: number): UsageRollup {
  return testRollup({
    client,
    ns,
    owner: "denials",
    clock: () => now,
    minutesRetentionMs: 7 * 24 * HOUR,
    hoursRetentionMs: 90 * 24 * HOUR,
  });
}

/** Rolls up to `now` (a few runs: each takes at most 120 minutes). */
async function rollUpTo(now: number): Promise<void> {
  for (let run = 0; run < 10; run++) {
    const done = await rollupAt(now).runOnce();
    expect(done).toMatchObject({ held: true, partitionFailures: 0 });
    if (done.minutes === 0) return;
  }
}

const ctxAt = (now: number): RowContext => ({ client, ns, now, secondsRetentionMs: HOUR });

async function read(tenant: TestTenant, now: number): Promise<Map<string, number>> {
  const { denials } = await limitDenials(ctxAt(now), tenant.id, now - 24 * HOUR, now + 1);
  return new Map(denials.map((d) => [idOf(d), d.count]));
}

beforeAll(async () => {
  a = await createTenant("denials-a", ["backend"]);
  b = await createTenant("denials-b", ["backend"]);
  recorder = new UsageRecorder({
    redis: () => client,
    ns,
    enabled: true,
    secondsRetentionMs: HOUR,
    clock: clock.now,
  });
  // the rollup had written everything before the hour
  await client.set(jobKeys(ns).minutes, String(hourStart / MINUTE_MS));
  await client.set(jobKeys(ns).hours, String(hourStart / HOUR));
}, 60_000);

afterAll(async () => {
  await recorder.stop();
  const keys = jobKeys(ns);
  await client.del(keys.minutes, keys.hours, keys.days, keys.lease, keys.fence, keys.retention);
  client.disconnect();
  await closeRedis();
  await closeDb();
});

describe("rejections per denying limit in PostgreSQL", () => {
  it("reads stored minutes and Redis' newer minutes once each, though Redis still has both", async () => {
    for (let m = 0; m < 6; m++) {
      await rejectionsIn(m, a, 2);
      await rejectionsIn(m, b, 1);
    }
    // minutes 0-5 rolled up (their hour not yet), minute 6 only in Redis
    await rollUpTo(start + 6 * MINUTE_MS + 10_000);
    expect(Number(await client.get(jobKeys(ns).minutes))).toBe(start / MINUTE_MS + 6);
    await rejectionsIn(6, a, 2);
    await rejectionsIn(6, b, 1);
    const at = start + 6 * MINUTE_MS + 59_000;
    expect(await read(a, at)).toEqual(sent.get(a.id));
    expect(await read(b, at)).toEqual(sent.get(b.id));
  });

  it("sums the hour, reads it on a 24 h range exactly, and each tenant's alone", async () => {
    const now = Date.now();
    await rollUpTo(now);
    const series = await db().usageDenialSeries.findMany({ where: { tenantId: { in: [a.id, b.id] } } });
    const stored = await db().usageDenialHour.count({
      where: { seriesId: { in: series.map((s) => s.id) }, hour: new Date(hourStart) },
    });
    // one row per (key, route, limit) of each tenant: a subject limit's too, whatever the subjects
    expect(stored).toBe(2 * KINDS.length);
    expect(await read(a, now)).toEqual(sent.get(a.id));
    expect(await read(b, now)).toEqual(sent.get(b.id));
    // nothing of B's keys in A's read, though both named their key "backend"
    const { denials } = await limitDenials(ctxAt(now), a.id, now - 24 * HOUR, now + 1);
    expect(denials.some((d) => d.keyId === b.keys.backend)).toBe(false);
  });

  it("counts the same rejections once when the minutes and the hour are rolled up again", async () => {
    await client.set(jobKeys(ns).minutes, String(hourStart / MINUTE_MS));
    await client.set(jobKeys(ns).hours, String(hourStart / HOUR));
    const now = Date.now();
    await rollUpTo(now);
    expect(await read(a, now)).toEqual(sent.get(a.id));
    expect(await read(b, now)).toEqual(sent.get(b.id));
  });

  it("stores at most the cap of rows for a tenant-hour, the rest under its limit, none lost", async () => {
    const c = await createTenant("denials-c", []);
    // 1,200 keys each denied by its own per-key limit: 600 a minute, under the minute's cap
    const keys = Array.from({ length: 1_200 }, (_, i) => `key-${String(i).padStart(4, "0")}`);
    for (const [m, part] of [keys.slice(0, 600), keys.slice(600)].entries()) {
      clock.ms = start + (20 + m) * MINUTE_MS;
      for (const [i, keyId] of part.entries())
        for (let k = 0; k < 1 + (i % 3); k++)
          recorder.record({
            tenantId: c.id,
            keyId,
            route: "GET /v1/items/:id",
            outcome: "rejected",
            subject: null,
            body: deniedBy("per-key", "tenant", "key"),
          });
      await recorder.flush();
    }
    await client.set(jobKeys(ns).minutes, String(start / MINUTE_MS + 20));
    await client.set(jobKeys(ns).hours, String(hourStart / HOUR));
    const now = Date.now();
    await rollUpTo(now);
    const { denials } = await limitDenials(ctxAt(now), c.id, now - 24 * HOUR, now + 1);
    expect(denials).toHaveLength(DENIAL_ROWS_CAP + 1);
    const other = denials.find((d) => d.keyId === OTHER);
    expect(other).toMatchObject({ route: OTHER, name: "per-key", level: "tenant", by: "key" });
    const sentTotal = keys.reduce((sum, _, i) => sum + 1 + ((i % 600) % 3), 0);
    expect(denials.reduce((sum, d) => sum + d.count, 0)).toBe(sentTotal);
  });
});
