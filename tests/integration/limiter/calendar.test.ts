import { afterAll, describe, expect, it } from "vitest";
import { evaluate, readReply } from "@/lib/check/limiter/evaluate";
import { checkScript, parseReply } from "@/lib/check/limiter/script";
import { specArgs } from "@/lib/check/limiter/spec-args";
import { limitKey } from "@/lib/check/limiter/keys";
import { ReferenceLimiter } from "@/lib/check/limiter/reference/model";
import type { CheckDecision, LimitSpec } from "@/lib/check/limiter/types";
import { runScript } from "@/lib/shared/redis/ioredis-scripts";
import type { CalendarPeriod } from "@/lib/shared/calendar";
import { rule, spec } from "../../unit/limiter/rules";
import { createVirtualClock } from "./virtual-clock";
import { clusterNodes, connect, RUN } from "./redis";
import { int, pick, prng } from "./random";

// Calendar quotas in lua/check.lua: against the reference model across the days, weeks and
// months whose length a time zone's DST changes (the bounds themselves are checked by hand
// in tests/unit/calendar), the period's end as reset and retry, a server clock behind
// Redis's, and two clients on one counter (on a Cluster too: the cluster suite runs this file).

const redis = connect();
afterAll(() => redis.quit());

const H = 3_600_000;
const at = (iso: string): number => Date.parse(iso);

function calendarSpec(tenant: string, period: CalendarPeriod, timeZone: string, limit: number): LimitSpec {
  return spec(
    tenant,
    `q-${period}`,
    rule("calendar", limit, 86_400_000, { calendar: { period, timeZone } }),
    "t",
  );
}

const SCENARIOS: { name: string; period: CalendarPeriod; zone: string; edge: string }[] = [
  {
    name: "Berlin day into the 23 h day",
    period: "day",
    zone: "Europe/Berlin",
    edge: "2025-03-29T23:00:00Z",
  },
  {
    name: "Berlin day out of the 25 h day",
    period: "day",
    zone: "Europe/Berlin",
    edge: "2025-10-26T23:00:00Z",
  },
  {
    name: "Berlin week ending on the DST Sunday",
    period: "week",
    zone: "Europe/Berlin",
    edge: "2025-03-30T22:00:00Z",
  },
  {
    name: "New York month after the March switch",
    period: "month",
    zone: "America/New_York",
    edge: "2025-04-01T04:00:00Z",
  },
  {
    name: "New York month after the November switch",
    period: "month",
    zone: "America/New_York",
    edge: "2025-12-01T05:00:00Z",
  },
  { name: "UTC month out of a leap February", period: "month", zone: "UTC", edge: "2024-03-01T00:00:00Z" },
  { name: "Sydney day out of DST", period: "day", zone: "Australia/Sydney", edge: "2025-04-06T14:00:00Z" },
];

describe("calendar quotas in lua/check.lua", () => {
  for (const [n, scenario] of SCENARIOS.entries()) {
    it(`agree with the reference model: ${scenario.name}`, { timeout: 60_000 }, async () => {
      for (let s = 0; s < 6; s++) {
        const rand = prng(1_000 * n + s);
        const tenant = `${RUN}cal${n}s${s}`;
        const limits = [calendarSpec(tenant, scenario.period, scenario.zone, int(rand, 1, 12))];
        if (rand() < 0.5) limits.push(spec(tenant, "fw", rule("fixed_window", int(rand, 3, 20), H), "t"));
        // from up to 30 h before the edge to past it, in steps from 0 ms to a few hours
        const clock = createVirtualClock(at(scenario.edge) - int(rand, 1, 30 * H));
        const model = new ReferenceLimiter(() => clock.nowMs());
        for (let step = 0; step < 60; step++) {
          clock.advance(pick(rand, [0, 1, int(rand, 1, 60_000), int(rand, 1, 3 * H), int(rand, 1, 3 * H)]));
          const request = { cost: rand() < 0.8 ? 1 : int(rand, 1, 15), dryRun: rand() < 0.1 };
          const lua = await evaluate(redis, limits, request, { clock });
          const ref = model.check(limits, request);
          expect(lua, `seed ${s} step ${step} at ${new Date(clock.nowMs()).toISOString()}`).toEqual(ref);
        }
      }
    });
  }

  it("resets and retries at the calendar boundary: 11 h before a Berlin midnight on the 25 h day", async () => {
    const tenant = `${RUN}calreset`;
    const limits = [calendarSpec(tenant, "day", "Europe/Berlin", 2)];
    const clock = createVirtualClock(at("2025-10-26T12:00:00Z"));
    const first = await evaluate(redis, limits, { cost: 2, dryRun: false }, { clock });
    expect(first).toMatchObject({ allowed: true, remaining: 0, resetMs: 11 * H });
    clock.advance(H);
    const denied = await evaluate(redis, limits, { cost: 1, dryRun: false }, { clock });
    expect(denied).toMatchObject({
      allowed: false,
      reason: "rate_limited",
      resetMs: 10 * H,
      retryAfterMs: 10 * H,
    });
    clock.set(at("2025-10-26T23:00:00Z") - 1);
    expect((await evaluate(redis, limits, { cost: 1, dryRun: false }, { clock })).allowed).toBe(false);
    clock.advance(1); // Berlin's midnight: a new day, a full quota, 24 h to the next
    const next = await evaluate(redis, limits, { cost: 1, dryRun: false }, { clock });
    expect(next).toMatchObject({ allowed: true, remaining: 1, resetMs: 24 * H });
  });

  it("a server whose clock is behind does not take the count back to the previous period", async () => {
    const tenant = `${RUN}calskew`;
    const limit = calendarSpec(tenant, "day", "UTC", 3);
    const key = limitKey(limit);
    const midnight = at("2025-06-02T00:00:00Z");
    // Redis says 10 ms past midnight; the server's own clock says 5 ms before it
    const call = async (serverNow: number, redisNow: number): Promise<CheckDecision> => {
      const args = [1, 0, redisNow, ...specArgs(limit, serverNow)];
      return readReply([limit], parseReply(await runScript(redis, checkScript(), [key], args)));
    };
    // the new day's first checks from a server in step
    expect((await call(midnight + 10, midnight + 10)).remaining).toBe(2);
    // the lagging server sends yesterday's bounds: counted in today's period all the same
    const lagging = await call(midnight - 5, midnight + 11);
    expect(lagging).toMatchObject({ allowed: true, remaining: 1, resetMs: 86_400_000 - 11 });
    expect((await call(midnight + 12, midnight + 12)).remaining).toBe(0);
    expect((await call(midnight - 3, midnight + 13)).allowed).toBe(false);
    // a Redis clock past the bounds sent, with nothing newer stored: counted in the period
    // sent, reset in 1 ms (the next check is sent the next period)
    const other = calendarSpec(`${tenant}b`, "day", "UTC", 3);
    const args = [1, 0, midnight + 20, ...specArgs(other, midnight - 1)];
    const reply = readReply(
      [other],
      parseReply(await runScript(redis, checkScript(), [limitKey(other)], args)),
    );
    expect(reply).toMatchObject({ allowed: true, resetMs: 1 });
  });

  it("two clients on one monthly counter admit exactly the limit", { timeout: 60_000 }, async () => {
    const second = connect(false);
    try {
      const tenant = `${RUN}caltwo`;
      const limits = [calendarSpec(tenant, "month", "Europe/Berlin", 100)];
      const send = (client: typeof redis) =>
        Promise.all(Array.from({ length: 150 }, () => evaluate(client, limits, { cost: 1, dryRun: false })));
      const [a, b] = await Promise.all([send(redis), send(second)]);
      const admitted = [...a, ...b].filter((d) => d.allowed).length;
      expect(admitted).toBe(100);
      for (const d of [...a, ...b].filter((x) => !x.allowed)) {
        // denied until the month ends in Berlin: at most 31 days and an hour away
        expect(d.retryAfterMs).toBeGreaterThan(0);
        expect(d.retryAfterMs).toBeLessThanOrEqual(31 * 24 * H + H);
        expect(d.retryAfterMs).toBe(d.resetMs);
      }
    } finally {
      await second.quit();
    }
  });

  it.skipIf(!clusterNodes())(
    "on a Cluster, calendar and plain limits of many tenants share one call each",
    async () => {
      const clock = createVirtualClock(at("2025-03-30T21:59:59Z"));
      const checks = Array.from({ length: 24 }, (_, i) => [
        calendarSpec(`${RUN}cc${i}`, "day", "Europe/Berlin", 1),
        spec(`${RUN}cc${i}`, "fw", rule("fixed_window", 5, H), "k:1"),
      ]);
      const first = await Promise.all(
        checks.map((l) => evaluate(redis, l, { cost: 1, dryRun: false }, { clock })),
      );
      expect(first.every((d) => d.allowed)).toBe(true);
      const second = await Promise.all(
        checks.map((l) => evaluate(redis, l, { cost: 1, dryRun: false }, { clock })),
      );
      expect(second.every((d) => !d.allowed && d.retryAfterMs === 1_000)).toBe(true);
      clock.advance(1_000); // Berlin's midnight after its 23 h day
      const third = await Promise.all(
        checks.map((l) => evaluate(redis, l, { cost: 1, dryRun: false }, { clock })),
      );
      expect(third.every((d) => d.allowed && d.limits[0]?.resetMs === 24 * H)).toBe(true);
    },
  );
});
