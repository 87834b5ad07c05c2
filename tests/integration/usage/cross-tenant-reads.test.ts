import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/shared/principal";
import { closeDb } from "@/lib/control/data/db";
import { closeRedis } from "@/lib/shared/redis/redis";
import { acrossTenants } from "@/lib/usage/read/across-tenants";
import { mostLimited } from "@/lib/usage/read/most-limited";
import { jobKeys } from "@/lib/usage/keys";
import type { Outcome } from "@/lib/usage/types";
import {
  connect,
  contextAt,
  createTenant,
  NS,
  recorderFor,
  TestClock,
  type TestTenant,
  testRollup,
} from "./setup";

// The reads that sum many tenants at once (the usage index past 50 tenants, the overview's
// "most limited"), against real Redis and PostgreSQL: one minute rolled up into PostgreSQL,
// the next two still in Redis. Each count is read once, from the store that holds it, and a
// member sees only their tenants' usage.

const client = connect();
let a: TestTenant;
let b: TestTenant;
let c: TestTenant;
// minute A (rolled up) starts 10 minutes ago; B and C follow, still in Redis
const minuteA = Math.floor(Date.now() / 60_000) * 60_000 - 10 * 60_000;
const now = minuteA + 3 * 60_000 - 1_000;
const ctx = () => contextAt(client, now);

const member = (...tenants: TestTenant[]): Principal => ({
  kind: "user",
  id: `u-${tenants.map((t) => t.slug).join("-")}`,
  email: "member@example.test",
  name: "Member",
  isOperator: false,
  memberships: new Map(tenants.map((t) => [t.id, "viewer" as const])),
});

beforeAll(async () => {
  a = await createTenant("xta", ["k1", "k2"]);
  b = await createTenant("xtb", ["k3"]);
  c = await createTenant("xtc", ["k4"]);
  const clock = new TestClock(minuteA + 5_000);
  const recorder = recorderFor(client, clock);
  const send = (t: TestTenant, n: number, key: string, route: string, outcome: Outcome) => {
    for (let i = 0; i < n; i++)
      recorder.record({ tenantId: t.id, keyId: t.keys[key] ?? null, route, outcome, subject: `${t.slug}-s` });
  };
  send(a, 10, "k1", "GET /a", "allowed");
  send(a, 4, "k1", "GET /a", "rejected");
  send(b, 3, "k3", "POST /b", "rejected");
  send(c, 50, "k4", "GET /c", "rejected");
  clock.ms = minuteA + 65_000;
  send(a, 5, "k2", "GET /a", "allowed");
  send(a, 2, "k1", "GET /a", "rejected");
  clock.ms = minuteA + 125_000;
  send(b, 6, "k3", "POST /b", "allowed");
  await recorder.stop();
  // the rollup as it runs just after minute A: A into PostgreSQL, B and C stay in Redis
  await testRollup({
    client,
    owner: "cross-tenant-test",
    clock: () => minuteA + 60_000 + 9_000,
  }).runOnce();
  // minute A rolled up, B not: the reads below cross the watermark
  expect(await client.get(jobKeys(NS).minutes)).toBe(String(minuteA / 60_000 + 1));
});

afterAll(async () => {
  client.disconnect();
  await closeRedis();
  await closeDb();
});

describe("usage across tenants", () => {
  it("sums each minute and each tenant once, rolled-up minutes from PostgreSQL and the rest from Redis", async () => {
    const read = await acrossTenants(member(a, b), minuteA - 60_000, minuteA + 4 * 60_000, 5_000, ctx());
    expect(read.stepMs).toBe(60_000);
    const steps = new Map(read.series.map((s) => [s.t, s]));
    expect(steps.get(minuteA)).toMatchObject({ allowed: 10, rejected: 7 });
    expect(steps.get(minuteA + 60_000)).toMatchObject({ allowed: 5, rejected: 2 });
    expect(steps.get(minuteA + 120_000)).toMatchObject({ allowed: 6, rejected: 0 });
    const tenants = new Map(read.byTenant.map((r) => [r.tenant, r]));
    expect(tenants.get(a.slug)).toMatchObject({ allowed: 15, rejected: 6 });
    expect(tenants.get(b.slug)).toMatchObject({ allowed: 6, rejected: 3 });
  });

  it("shows a member only their tenants", async () => {
    const read = await acrossTenants(member(b), minuteA - 60_000, minuteA + 4 * 60_000, 60_000, ctx());
    expect(read.byTenant.map((r) => r.tenant)).toEqual([b.slug]);
    const total = read.series.reduce((sum, s) => sum + s.allowed + s.rejected, 0);
    expect(total).toBe(9);
  });
});

describe("most limited, rolled up and recent", () => {
  it("adds a key's and a route's rejections from both stores, and names the key", async () => {
    const entries = await mostLimited(member(a, b), "15m", ctx());
    const key = entries.find((e) => e.kind === "key" && e.tenant === a.slug);
    expect(key).toMatchObject({ name: "k1", checks: 16, rejected: 6 });
    const route = entries.find((e) => e.kind === "route" && e.tenant === a.slug);
    expect(route).toMatchObject({ id: "GET /a", checks: 21, rejected: 6 });
    expect(entries.find((e) => e.kind === "key" && e.tenant === b.slug)).toMatchObject({
      name: "k3",
      checks: 9,
      rejected: 3,
    });
    // c rejected most, but is not this member's
    expect(entries.some((e) => e.tenant === c.slug)).toBe(false);
  });

  it("ranks the tenants by their rolled-up rejections past the cap", async () => {
    const entries = await mostLimited(member(a, b, c), "15m", ctx(), 1);
    expect(new Set(entries.map((e) => e.tenant))).toEqual(new Set([c.slug]));
  });
});
