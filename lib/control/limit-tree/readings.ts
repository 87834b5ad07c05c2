import type { LimitRule } from "@/lib/shared/limit-types";

// A counter's state (the integers of its record in the owner key, lua/common.lua) read as
// "used of capacity" at Redis time `now`, in each algorithm's own terms (lua/algorithms/):
// the count of the current window, the weighted sliding count, or the meter's level.
// For display only: fractions are kept, the script's exact integer math is not needed.

/** s1, s2, s3 and the time after which the state no longer matters */
export type RecordState = readonly [number, number, number, number];

export interface Usage {
  used: number;
  capacity: number;
  remaining: number;
}

function windowUsage(rule: LimitRule, s: RecordState | undefined, now: number): Usage {
  const W = rule.windowMs;
  const L = rule.limit;
  const idx = Math.floor(now / W);
  if (rule.algorithm === "fixed_window") {
    const count = s && s[0] === idx ? s[1] : 0;
    return { used: count, capacity: L, remaining: Math.max(0, L - count) };
  }
  // sliding_window: {idx, curr, prev}; prev weighs (W - elapsed) / W
  let curr = 0;
  let prev = 0;
  if (s && s[0] === idx) [curr, prev] = [s[1], s[2]];
  else if (s && s[0] === idx - 1) prev = s[1];
  const weighted = (prev * (W - (now - idx * W))) / W + curr;
  return { used: weighted, capacity: L, remaining: Math.max(0, Math.floor(L - weighted)) };
}

function meterUsage(rule: LimitRule, s: RecordState | undefined, now: number): Usage {
  const capacity = rule.burst ?? rule.limit;
  if (!s) return { used: 0, capacity, remaining: capacity };
  // {x, t, scale}: the level times `scale` at time t, draining at L/W units per ms
  const [x, t, scale] = s;
  const level = Math.max(0, x / scale - (Math.max(0, now - t) * rule.limit) / rule.windowMs);
  return { used: level, capacity, remaining: Math.max(0, Math.floor(capacity - level + 1e-9)) };
}

/** The usage of a limit from its record (undefined: no record, a fresh counter). */
export function usageOf(rule: LimitRule, state: RecordState | undefined, now: number): Usage {
  const live = state && state[3] > now ? state : undefined;
  switch (rule.algorithm) {
    case "fixed_window":
    case "sliding_window":
      return windowUsage(rule, live, now);
    case "token_bucket":
    case "leaky_bucket":
    case "gcra":
      return meterUsage(rule, live, now);
    case "sliding_log":
      throw new Error("sliding_log is read from its own key: use logUsage");
    case "concurrency":
      throw new Error("concurrency is read from its own key: use logUsage with the leases held");
    case "calendar": {
      // {start, count, end}: a record lives until its period's end, so a live one is this period's
      const count = live ? live[1] : 0;
      return { used: count, capacity: rule.limit, remaining: Math.max(0, rule.limit - count) };
    }
  }
}

/** A sliding log's usage from the units it admitted in the window. */
export function logUsage(rule: LimitRule, units: number): Usage {
  return { used: units, capacity: rule.limit, remaining: Math.max(0, rule.limit - units) };
}

/** used / capacity, clamped to 0..1. */
export function utilizationOf(usage: Usage): number {
  return usage.capacity > 0 ? Math.min(1, Math.max(0, usage.used / usage.capacity)) : 0;
}
