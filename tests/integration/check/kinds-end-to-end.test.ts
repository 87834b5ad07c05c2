import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dashboardData } from "@/lib/usage/read/dashboard";
import { closeClients, FREE_PLAN_OFF, setupTenants, tester, unique } from "./setup";
import { APP_URL_2, check, post, waitForVersion, type Answer, type Decision } from "./http";
import { waitFor } from "../../wait-for";

// Each limit kind of docs/algorithms.md end to end on the running apps: a document imported,
// checks over HTTP, the RateLimit headers of their answers (docs/api.md), and the usage
// page's chart data counting them. One tenant per kind, so each one's usage is its own.

const t = {
  leases: unique("e2e-lease"),
  calendar: unique("e2e-cal"),
  penalty: unique("e2e-pen"),
  lists: unique("e2e-list"),
  adjust: unique("e2e-adj"),
};

beforeAll(async () => {
  const hour = { by: "tenant", algorithm: "fixed_window", window: "1h" } as const;
  const { version } = await setupTenants([
    {
      slug: t.leases,
      plan: "free",
      limits: [
        ...FREE_PLAN_OFF,
        { name: "in-flight", by: "tenant", algorithm: "concurrency", limit: 1, window: "1m" },
      ],
    },
    {
      slug: t.calendar,
      plan: "free",
      timeZone: "Europe/Berlin",
      limits: [
        ...FREE_PLAN_OFF,
        { name: "daily", by: "tenant", algorithm: "calendar", limit: 1, period: "day" },
      ],
    },
    {
      slug: t.penalty,
      plan: "free",
      limits: [...FREE_PLAN_OFF, { name: "one", ...hour, limit: 1, penalty: { block: "5m" } }],
    },
    {
      slug: t.lists,
      plan: "free",
      limits: [
        ...FREE_PLAN_OFF,
        { name: "per-subject", by: "subject", algorithm: "fixed_window", limit: 1, window: "1h" },
      ],
      lists: { deny: ["bad-bot"], allow: ["friend"] },
    },
    { slug: t.adjust, plan: "free", limits: [...FREE_PLAN_OFF, { name: "two", ...hour, limit: 2 }] },
  ]);
  await waitForVersion(version);
  await waitForVersion(version, APP_URL_2);
});

afterAll(closeClients);

/** The usage page's chart data of a tenant: its series summed, once the recorder flushed `total` decisions. */
async function chartCounts(tenant: string, total: number): Promise<{ allowed: number; rejected: number }> {
  let sums = { allowed: 0, rejected: 0 };
  await waitFor(async () => {
    const page = await dashboardData(tester, { tenant, range: "1h" });
    sums = page.series.reduce(
      (s, p) => ({ allowed: s.allowed + p.allowed, rejected: s.rejected + p.rejected }),
      { allowed: 0, rejected: 0 },
    );
    return sums.allowed + sums.rejected >= total;
  }, `${total} decisions of ${tenant} in the usage chart`);
  return sums;
}

const header = (answer: Answer<Decision>, name: string): string | null => answer.headers.get(name);

/**
 * A check Redis decided: sent again while the answer is degraded. On a loaded machine a
 * check can miss SLUICE_CHECK_TIMEOUT_MS (50 ms) and is then answered by onStoreFailure
 * (open: allowed, no lease, nothing counted), which says nothing about the leases held.
 */
async function counted(send: () => Promise<Answer<Decision>>): Promise<Answer<Decision>> {
  let answer = await send();
  for (let tries = 1; answer.body.degraded && tries < 20; tries++) answer = await send();
  return answer;
}

describe("each limit kind from the document to the usage chart", () => {
  it("concurrency: a lease per admitted check, denied while held, free again after the release", async () => {
    const first = await counted(() => check({ tenant: t.leases }));
    expect(first.body).toMatchObject({ allowed: true, reason: "ok", degraded: false });
    expect(header(first, "ratelimit-policy")).toBe('"in-flight";q=1;qu="concurrent-requests"');
    expect(header(first, "ratelimit")).toMatch(/^"in-flight";r=0;t=\d+$/);
    const held = await counted(() => check({ tenant: t.leases }, { url: APP_URL_2 }));
    expect(held.body).toMatchObject({ allowed: false, reason: "rate_limited" });
    expect(Number(header(held, "retry-after"))).toBeGreaterThan(0);
    const lease = (first.body as Decision & { lease?: string }).lease;
    expect(typeof lease).toBe("string");
    expect((await post("/api/check/release", { lease })).body).toEqual({ released: true });
    const again = await counted(() => check({ tenant: t.leases }));
    expect(again.body).toMatchObject({ allowed: true, degraded: false });
    await post("/api/check/release", { lease: (again.body as Decision & { lease?: string }).lease });
    expect(await chartCounts(t.leases, 3)).toEqual({ allowed: 2, rejected: 1 });
  });

  it("calendar: the quota's day in its zone, Retry-After at the zone's midnight", async () => {
    const first = await check({ tenant: t.calendar });
    expect(header(first, "ratelimit-policy")).toMatch(/^"daily";q=1;w=\d+$/);
    const denied = await check({ tenant: t.calendar }, { url: APP_URL_2 });
    expect(denied.body).toMatchObject({ allowed: false, reason: "rate_limited" });
    expect(Number(header(denied, "retry-after"))).toBe(Math.ceil((denied.body.retryAfterMs ?? 0) / 1_000));
    expect(await chartCounts(t.calendar, 2)).toEqual({ allowed: 1, rejected: 1 });
  });

  it("penalty: the denial starts a block of 5 minutes, answered on both apps with its end", async () => {
    expect((await check({ tenant: t.penalty })).body.allowed).toBe(true);
    const denied = await check({ tenant: t.penalty });
    expect(denied.body).toMatchObject({ allowed: false, reason: "penalty", retryAfterMs: 300_000 });
    expect(header(denied, "retry-after")).toBe("300");
    const other = await check({ tenant: t.penalty }, { url: APP_URL_2 });
    expect(other.body).toMatchObject({ allowed: false, reason: "penalty" });
    expect(Number(header(other, "retry-after"))).toBeLessThanOrEqual(300);
    expect(header(other, "ratelimit")).toMatch(/^"one";r=0;t=\d+$/);
    expect(await chartCounts(t.penalty, 3)).toEqual({ allowed: 1, rejected: 2 });
  });

  it("lists: a denied subject without limits or headers, an allowed one past its limit", async () => {
    const denied = await check({ tenant: t.lists, subject: "bad-bot" });
    expect(denied.body).toMatchObject({
      allowed: false,
      reason: "deny_list",
      limits: [],
      retryAfterMs: null,
    });
    expect([header(denied, "ratelimit-policy"), header(denied, "retry-after")]).toEqual([null, null]);
    for (let i = 0; i < 2; i++) {
      const friend = await check({ tenant: t.lists, subject: "friend" }, i ? { url: APP_URL_2 } : {});
      expect(friend.body).toMatchObject({ allowed: true, limits: [] });
      expect(header(friend, "ratelimit-policy")).toBeNull();
    }
    const plain = await check({ tenant: t.lists, subject: "someone" });
    expect(header(plain, "ratelimit-policy")).toBe('"per-subject";q=1;w=3600');
    expect(await chartCounts(t.lists, 4)).toEqual({ allowed: 3, rejected: 1 });
  });

  it("adjustments: a refund gives the unit back, seen in the next check's headers", async () => {
    const first = await check({ tenant: t.adjust, adjustable: true });
    expect(header(first, "ratelimit")).toMatch(/^"two";r=1;t=\d+$/);
    const checkId = (first.body as Decision & { checkId?: string }).checkId;
    const refund = await post("/api/check/adjust", { checkId, amount: -1 }, { url: APP_URL_2 });
    expect(refund.body).toMatchObject({ held: 0, effects: ["applied"] });
    const next = await check({ tenant: t.adjust });
    expect(header(next, "ratelimit")).toMatch(/^"two";r=1;t=\d+$/);
    // the usage chart counts decisions: a refund changes the counter, not the decision count
    expect(await chartCounts(t.adjust, 2)).toEqual({ allowed: 2, rejected: 0 });
  });
});
