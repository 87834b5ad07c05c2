import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/shared/principal";
import { closeDb } from "@/lib/control/data/db";
import { deleteTenantUsage, writeLevel } from "@/lib/control/data/usage/stored-rows";
import { closeRedis } from "@/lib/shared/redis/redis";
import { acrossTenants } from "@/lib/usage/read/across-tenants";
import { breakdown, withOthers } from "@/lib/usage/read/query";
import { jobKeys } from "@/lib/usage/keys";
import { UsageRecorder } from "@/lib/usage/record/recorder";
import { connect, createTenant, HOUR, NS, TestClock, type TestTenant } from "./setup";

// The usage index's breakdown past the top, against real PostgreSQL and Redis: the rolled-up
// ranking names the eight busiest tenants and sums the others in one row, but keeps by name
// a tenant with checks still in Redis, which may climb into the top once they are added.

const client = connect();
const ns = `${NS}ranking:`;
const MINUTE = 60_000;
// R rolled up; R + 2 min still in Redis
const R = Math.floor(Date.now() / MINUTE) * MINUTE - 5 * MINUTE;
const tenants: TestTenant[] = [];
let reader: Principal;

beforeAll(async () => {
  for (let i = 0; i < 10; i++) tenants.push(await createTenant(`rank${i}`, ["k"]));
  // tenant i: 10 (i + 1) checks in minute R
  for (const [i, t] of tenants.entries())
    await writeLevel("minute", R, [
      {
        tenantId: t.id,
        keyId: t.keys.k ?? "",
        route: "GET /r",
        allowed: 10 * (i + 1),
        rejected: 0,
        shadowRejected: 0,
        degraded: 0,
        leasesAcquired: 0,
        leasesReleased: 0,
        leasesExpired: 0,
      },
    ]);
  const clock = new TestClock(R + 2 * MINUTE + 1_000);
  const recorder = new UsageRecorder({
    redis: () => client,
    ns,
    enabled: true,
    secondsRetentionMs: HOUR,
    clock: clock.now,
  });
  const first = tenants[0] as TestTenant;
  for (let n = 0; n < 500; n++)
    recorder.record({
      tenantId: first.id,
      keyId: first.keys.k ?? null,
      route: "GET /r",
      outcome: "allowed",
      subject: "s",
    });
  await recorder.stop();
  const marks = jobKeys(ns);
  await client.set(marks.minutes, String(R / MINUTE + 1));
  await client.set(marks.hours, String(Math.floor(R / HOUR)));
  await client.set(marks.days, String(Math.floor(R / (24 * HOUR))));
  // a member of these ten only: the ranking is of what the reader sees
  reader = {
    kind: "user",
    id: "u-ranking",
    email: "ranking@example.test",
    name: "Ranking",
    isOperator: false,
    memberships: new Map(tenants.map((t) => [t.id, "viewer" as const])),
  };
}, 60_000);

afterAll(async () => {
  await deleteTenantUsage(tenants.map((t) => t.id));
  client.disconnect();
  await closeRedis();
  await closeDb();
});

describe("the usage index's ranking of tenants", () => {
  it("names the eight busiest and the tenants with recent checks, and sums the rest", async () => {
    const ctx = { client, ns, now: R + 3 * MINUTE, secondsRetentionMs: HOUR };
    const read = await acrossTenants(reader, R - 5 * MINUTE, R + 10 * MINUTE, MINUTE, ctx);
    const slug = (i: number) => (tenants[i] as TestTenant).slug;
    const named = new Map(read.byTenant.map((r) => [r.tenant, r.allowed]));
    // the busiest eight by their rolled-up checks, and tenant 0 for its checks in Redis
    expect(new Set(named.keys())).toEqual(new Set([0, 2, 3, 4, 5, 6, 7, 8, 9].map(slug)));
    expect(named.get(slug(0))).toBe(510);
    expect(named.get(slug(9))).toBe(100);
    // tenant 1 is summed, unnamed
    expect(read.others).toEqual({
      allowed: 20,
      rejected: 0,
      shadowRejected: 0,
      degraded: 0,
      leasesAcquired: 0,
      leasesReleased: 0,
      leasesExpired: 0,
    });
    // the chart has every checks of the range, rolled up and recent
    expect(read.series.reduce((sum, s) => sum + s.allowed, 0)).toBe(550 + 500);
    // as the page shapes it: tenant 0 climbed to the top; (other) is tenants 2 and 1
    const rows = read.byTenant.map((r) => ({ ...r, keyId: r.tenant }));
    const shown = withOthers(
      breakdown(rows, "key", new Map(rows.map((r) => [r.keyId, r.keyId]))),
      read.others,
    );
    expect(shown.map((r) => r.name)).toEqual([...[0, 9, 8, 7, 6, 5, 4, 3].map(slug), "(other)"]);
    expect(shown.at(-1)).toMatchObject({ id: null, allowed: 50 });
  });
});
