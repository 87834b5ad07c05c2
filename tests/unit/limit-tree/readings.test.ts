// Counter states read as "used of capacity" (lib/limit-tree/readings.ts), per algorithm, in
// the record layout of lua/common.lua and lua/algorithms/.
import { describe, expect, it } from "vitest";
import { logUsage, usageOf, utilizationOf } from "@/lib/control/limit-tree/readings";
import type { Algorithm, LimitRule } from "@/lib/shared/limit-types";

function rule(algorithm: Algorithm, limit: number, windowMs: number, burst: number | null = null): LimitRule {
  return {
    algorithm,
    limit,
    windowMs,
    burst,
    action: "reject",
    maxDelayMs: null,
    mode: "enforce",
    onStoreFailure: "open",
  };
}

const NOW = 1_000_000_000_500; // 500 ms into a 1 s window
const LATER = NOW + 60_000; // records live until then

describe("limit tree readings", () => {
  it("counts a fixed window's current window only", () => {
    const r = rule("fixed_window", 10, 1_000);
    const idx = Math.floor(NOW / 1_000);
    expect(usageOf(r, [idx, 8, 0, LATER], NOW)).toEqual({ used: 8, capacity: 10, remaining: 2 });
    expect(usageOf(r, [idx - 1, 8, 0, LATER], NOW).used).toBe(0);
    // a record past its end is an absent one
    expect(usageOf(r, [idx, 8, 0, NOW], NOW).used).toBe(0);
    expect(usageOf(r, undefined, NOW)).toEqual({ used: 0, capacity: 10, remaining: 10 });
  });

  it("weighs a sliding window's previous window by the share still inside", () => {
    const r = rule("sliding_window", 10, 1_000);
    const idx = Math.floor(NOW / 1_000);
    // half the window elapsed: prev 6 weighs 3, plus curr 4
    expect(usageOf(r, [idx, 4, 6, LATER], NOW)).toEqual({ used: 7, capacity: 10, remaining: 3 });
    // the state is of the previous window: its curr is now prev
    expect(usageOf(r, [idx - 1, 6, 9, LATER], NOW).used).toBe(3);
  });

  it("drains a meter's level at L/W per ms, whatever scale it was stored at", () => {
    const bucket = rule("token_bucket", 10, 1_000, 20);
    // level 12 stored times W' = 100 (L/W reduced by their gcd 10) at NOW - 200: drained 2
    expect(usageOf(bucket, [1_200, NOW - 200, 100, LATER], NOW)).toEqual({
      used: 10,
      capacity: 20,
      remaining: 10,
    });
    const gcra = rule("gcra", 5, 1_000);
    // TAT 400 ms ahead (T = 200 ms): level 2 of 5, stored times W' = 200 (L' = 1)
    expect(usageOf(gcra, [400, NOW, 200, LATER], NOW).used).toBeCloseTo(2, 9);
    expect(usageOf(rule("leaky_bucket", 50, 1_000), [5_000, NOW - 2_000, 1_000, LATER], NOW).used).toBe(0);
  });

  it("reads a sliding log from its units and clamps utilization to 0..1", () => {
    expect(logUsage(rule("sliding_log", 120, 60_000), 96)).toEqual({
      used: 96,
      capacity: 120,
      remaining: 24,
    });
    expect(utilizationOf({ used: 96, capacity: 120, remaining: 24 })).toBeCloseTo(0.8, 9);
    expect(utilizationOf({ used: 30, capacity: 20, remaining: 0 })).toBe(1);
    expect(() => usageOf(rule("sliding_log", 1, 1), undefined, NOW)).toThrow(/logUsage/);
  });
});
