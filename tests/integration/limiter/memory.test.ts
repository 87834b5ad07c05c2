import { afterAll, describe, expect, it } from "vitest";
import { ALGORITHMS } from "@/lib/shared/limit-types";
import { evaluate } from "@/lib/check/limiter/evaluate";
import { limitKey } from "@/lib/check/limiter/keys";
import { rule, spec } from "../../unit/limiter/rules";
import { createVirtualClock } from "./virtual-clock";
import { connect, RUN, tenantKeys } from "./redis";

// Idle state must disappear by itself, and a sliding log must stay bounded.

const redis = connect();
afterAll(() => redis.quit());
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("limiter state in Redis", () => {
  it("gives every key a TTL no longer than its state matters, then drops it", async () => {
    const tenant = `${RUN}m`;
    const W = 300;
    // a calendar quota's state matters until its period's end: its own test below
    const limits = ALGORITHMS.filter((a) => a !== "calendar").map((algorithm) =>
      spec(tenant, algorithm, rule(algorithm, 3, W)),
    );
    await evaluate(redis, limits, { cost: 2, dryRun: false });
    const keys = await tenantKeys(redis, tenant);
    // the sliding log and the concurrency limit's leases have their own keys; the other five
    // share their owner's
    expect(keys.sort()).toEqual([...new Set(limits.map(limitKey))].sort());
    expect(keys).toHaveLength(3);
    for (const key of keys) {
      const ttl = await redis.pttl(key);
      expect(ttl, key).toBeGreaterThan(0);
      // sliding window keeps its count for the next window too: at most 2W
      expect(ttl, key).toBeLessThanOrEqual(2 * W);
    }
    await sleep(2 * W + 50);
    expect(await tenantKeys(redis, tenant)).toEqual([]);
  });

  it("keeps a calendar quota's counter until its period ends, no longer", async () => {
    const tenant = `${RUN}mc`;
    const daily = spec(
      tenant,
      "q",
      rule("calendar", 3, 86_400_000, { calendar: { period: "day", timeZone: "UTC" } }),
    );
    const before = Date.now();
    await evaluate(redis, [daily], { cost: 1, dryRun: false });
    const ttl = await redis.pttl(limitKey(daily));
    const midnight = Math.ceil((before + 1) / 86_400_000) * 86_400_000;
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(midnight - before);
  });

  it("writes nothing for a dryRun or a denied check", async () => {
    const tenant = `${RUN}n`;
    const limits = ALGORITHMS.map((algorithm) => spec(tenant, algorithm, rule(algorithm, 3, 60_000)));
    await evaluate(redis, limits, { cost: 2, dryRun: true });
    await evaluate(redis, limits, { cost: 4, dryRun: false });
    expect(await tenantKeys(redis, tenant)).toEqual([]);
  });

  it("never holds more than L entries in a sliding log", async () => {
    const tenant = `${RUN}o`;
    const L = 7;
    const log = spec(tenant, "log", rule("sliding_log", L, 1_000));
    const clock = createVirtualClock(1_790_000_000_000);
    let largest = 0;
    for (let i = 0; i < 400; i++) {
      clock.advance(i % 3 === 0 ? 37 : 0);
      await evaluate(redis, [log], { cost: 1 + (i % 2), dryRun: false }, { clock });
      largest = Math.max(largest, await redis.zcard(limitKey(log)));
    }
    expect(largest).toBeLessThanOrEqual(L);
    expect(largest).toBeGreaterThan(1);
  });
});
