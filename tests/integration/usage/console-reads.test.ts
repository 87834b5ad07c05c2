import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/shared/principal";
import { closeDb } from "@/lib/control/data/db";
import { NotFoundError } from "@/lib/control/errors/errors";
import { closeRedis } from "@/lib/shared/redis/redis";
import { dashboardData } from "@/lib/usage/read/dashboard";
import { keysTraffic } from "@/lib/usage/read/key-traffic";
import { mostLimited } from "@/lib/usage/read/most-limited";
import { topOffenders } from "@/lib/usage/read/offenders";
import type { Outcome } from "@/lib/usage/types";
import { connect, contextAt, createTenant, recorderFor, SYSTEM, TestClock, type TestTenant } from "./setup";

// The console's usage reads against real Redis and PostgreSQL: traffic per key (keys page),
// the cross-tenant "most limited" list (overview) and its isolation, offenders narrowed to a
// key and a route, and a custom (zoomed) range on the usage page's data.

const client = connect();
let a: TestTenant;
let b: TestTenant;
// two complete minutes back, read as if now were a minute later: all within the 15 min range
const base = Math.floor(Date.now() / 60_000) * 60_000 - 2 * 60_000;
const now = base + 60_000 + 30_000;
const ctx = () => contextAt(client, now);
// this file's usage is in Redis only: read every tenant (past 50, the overview reads those
// that rejected most in PostgreSQL: tests/integration/dashboard/console-lists.test.ts)
const ALL_TENANTS = 1_000_000;

const user = (isOperator: boolean, memberOf: string[]): Principal => ({
  kind: "user",
  id: `u-${memberOf.join("-") || "none"}`,
  email: "someone@example.test",
  name: "Someone",
  isOperator,
  memberships: new Map(memberOf.map((id) => [id, "viewer" as const])),
});

beforeAll(async () => {
  a = await createTenant("cra", ["backend", "mobile"]);
  b = await createTenant("crb", ["worker"]);
  const clock = new TestClock(base + 1_000);
  const recorder = recorderFor(client, clock);
  const send = (t: TestTenant, n: number, key: string, route: string, outcome: Outcome, subject: string) => {
    for (let i = 0; i < n; i++) {
      recorder.record({ tenantId: t.id, keyId: t.keys[key] ?? null, route, outcome, subject });
    }
  };
  send(a, 20, "backend", "GET /v1/items/:id", "allowed", "203.0.113.9");
  send(a, 5, "backend", "GET /v1/items/:id", "rejected", "203.0.113.9");
  send(a, 2, "mobile", "POST /v1/search", "allowed", "198.51.100.7");
  send(a, 18, "mobile", "POST /v1/search", "rejected", "198.51.100.7");
  clock.ms = base + 61_000;
  send(a, 3, "mobile", "GET /v1/items/:id", "rejected", "192.0.2.1");
  send(b, 100, "worker", "POST /jobs", "allowed", "b-subject");
  send(b, 40, "worker", "POST /jobs", "rejected", "b-subject");
  await recorder.stop();
  expect(recorder.stats()).toMatchObject({ recorded: 188, droppedEvents: 0 });
});

afterAll(async () => {
  client.disconnect();
  await closeRedis();
  await closeDb();
});

describe("traffic per key", () => {
  it("counts checks, rejections, rate and a series per key of the tenant only", async () => {
    const traffic = await keysTraffic(SYSTEM, a.slug, "15m", ctx());
    expect([...traffic.keys.keys()].sort()).toEqual(["backend", "mobile"]);
    expect(traffic.keys.get("backend")).toMatchObject({ checks: 25, rejected: 5, rate: 0.2 });
    expect(traffic.keys.get("mobile")).toMatchObject({ checks: 23, rejected: 21 });
    const mobile = traffic.keys.get("mobile");
    expect(mobile?.spark.reduce((s, n) => s + n, 0)).toBe(23);
    expect(mobile?.sparkRejected.reduce((s, n) => s + n, 0)).toBe(21);
    // two minutes apart: the 15 min series puts them in different buckets
    expect(mobile?.spark.filter((n) => n > 0)).toHaveLength(2);
  });

  it("is not found for a member of another tenant", async () => {
    await expect(keysTraffic(user(false, [b.id]), a.slug, "15m", ctx())).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});

describe("most limited across tenants", () => {
  it("lists keys, routes and subjects of every tenant for an operator, by rejections", async () => {
    const entries = (await mostLimited(user(true, []), "15m", ctx(), ALL_TENANTS)).filter(
      (e) => e.tenant === a.slug || e.tenant === b.slug,
    );
    const find = (kind: string, tenant: string, name: string) =>
      entries.find((e) => e.kind === kind && e.tenant === tenant && e.name === name);
    expect(find("key", b.slug, "worker")).toMatchObject({ rejected: 40, checks: 140 });
    expect(find("key", a.slug, "mobile")).toMatchObject({ rejected: 21, checks: 23 });
    expect(find("route", a.slug, "POST /v1/search")).toMatchObject({ rejected: 18, id: "POST /v1/search" });
    expect(find("route", a.slug, "GET /v1/items/:id")).toMatchObject({ rejected: 8, checks: 28 });
    expect(find("subject", b.slug, "b-subject")).toMatchObject({ rejected: 40, rate: null });
    expect(find("subject", a.slug, "198.51.100.7")).toMatchObject({ rejected: 18 });
    const counts = entries.map((e) => e.rejected);
    expect(counts).toEqual([...counts].sort((x, y) => y - x));
  });

  it("shows a tenant member only their tenants' keys, routes and subjects", async () => {
    const entries = await mostLimited(user(false, [a.id]), "15m", ctx(), ALL_TENANTS);
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((e) => e.tenant === a.slug)).toBe(true);
    expect(
      entries.some((e) => e.name === "worker" || e.name === "b-subject" || e.name === "POST /jobs"),
    ).toBe(false);
    expect(await mostLimited(user(false, []), "15m", ctx(), ALL_TENANTS)).toEqual([]);
  });
});

describe("offenders of one key or route", () => {
  it("narrows subjects and keys to the key, the route, or both", async () => {
    const range = [base, now + 1] as const;
    const mobileId = a.keys.mobile ?? "";
    const byKey = await topOffenders(SYSTEM, a.slug, ...range, 10, ctx(), { keyId: mobileId });
    expect(byKey).toEqual([
      { kind: "key", name: "mobile", rejected: 21 },
      { kind: "subject", name: "198.51.100.7", rejected: 18 },
      { kind: "subject", name: "192.0.2.1", rejected: 3 },
    ]);
    const byRoute = await topOffenders(SYSTEM, a.slug, ...range, 10, ctx(), { route: "GET /v1/items/:id" });
    expect(byRoute).toEqual([
      { kind: "key", name: "backend", rejected: 5 },
      { kind: "subject", name: "203.0.113.9", rejected: 5 },
      { kind: "key", name: "mobile", rejected: 3 },
      { kind: "subject", name: "192.0.2.1", rejected: 3 },
    ]);
    const both = await topOffenders(SYSTEM, a.slug, ...range, 10, ctx(), {
      keyId: mobileId,
      route: "GET /v1/items/:id",
    });
    expect(both.map((o) => o.name)).toEqual(["mobile", "192.0.2.1"]);
    // unfiltered: the tenant-wide sets, which know nothing of tenant b
    const all = await topOffenders(SYSTEM, a.slug, ...range, 10, ctx());
    expect(all.map((o) => o.name)).not.toContain("b-subject");
  });

  it("are what the usage page shows for a drill-down", async () => {
    const page = await dashboardData(
      SYSTEM,
      { tenant: a.slug, route: "POST /v1/search", range: "15m" },
      ctx(),
    );
    expect(page.offendersOf).toBe("filter");
    // plan free has no shadow limit: the page says so instead of an empty shadow chart
    expect(page.shadowLimits).toBe(0);
    expect(page.offenders).toEqual([
      { kind: "key", name: "mobile", rejected: 18 },
      { kind: "subject", name: "198.51.100.7", rejected: 18 },
    ]);
  });
});

describe("shadow limits on the usage page", () => {
  it("counts the tenant's limits in shadow mode (the demo's acme has burst-guard), none on the overview", async () => {
    expect((await dashboardData(SYSTEM, { tenant: "acme", range: "15m" }, ctx())).shadowLimits).toBe(1);
    expect((await dashboardData(SYSTEM, { range: "15m" }, ctx())).shadowLimits).toBeNull();
  });
});

describe("data starts here", () => {
  it("marks a new tenant's 24 h chart where its data can begin, and not a range that starts after", async () => {
    const before = Date.now();
    const fresh = await createTenant("crfresh", []);
    const after = Date.now();
    const day = await dashboardData(SYSTEM, { tenant: fresh.slug, range: "24h" }, contextAt(client, after));
    expect(day.dataStartsAt).toBeGreaterThanOrEqual(Math.floor(before / 1_000) * 1_000 - 1_000);
    expect(day.dataStartsAt).toBeLessThanOrEqual(after);
    // a range that begins after the tenant was made has nothing to mark
    const window = { from: after + 60_000, to: after + 120_000 };
    const later = await dashboardData(
      SYSTEM,
      { tenant: fresh.slug, range: "15m", window },
      contextAt(client, after + 120_000),
    );
    expect(later.dataStartsAt).toBeNull();
  });
});

describe("a custom range on the usage page", () => {
  it("reads exactly the window, at a step that fits it", async () => {
    const window = { from: base, to: base + 60_000 };
    const page = await dashboardData(SYSTEM, { tenant: a.slug, range: "15m", window }, ctx());
    expect(page.window).toEqual(window);
    expect(page.stepMs).toBe(5_000);
    expect(page.series).toHaveLength(12);
    // only the first minute: backend's 25 and mobile's 20, not mobile's 3 of the next
    const sum = page.series.reduce((s, p) => s + p.allowed + p.rejected, 0);
    expect(sum).toBe(45);
    const next = await dashboardData(
      SYSTEM,
      { tenant: a.slug, range: "15m", window: { from: base + 60_000, to: base + 120_000 } },
      ctx(),
    );
    expect(next.series.reduce((s, p) => s + p.rejected, 0)).toBe(3);
  });
});
