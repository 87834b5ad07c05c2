import { describe, expect, it } from "vitest";
import type { CheckResult } from "@sluice/client";
import { checkDenyOptions, jittered, overLimit, queued } from "@/packages/client/src/middleware/deny";

// The pieces of the deny answers that need no server: the jitter's bounds and spread, the
// options' validation, and the queue's bounds (size, total wait, retries worth waiting for).

function decision(allowed: boolean, retryAfterMs: number | null, reason = "rate_limited"): CheckResult {
  return {
    allowed,
    reason: allowed ? "ok" : (reason as CheckResult["reason"]),
    tenant: "t",
    key: null,
    route: null,
    limit: 1,
    remaining: 0,
    resetMs: null,
    retryAfterMs,
    waitMs: 0,
    limits: [],
    degraded: false,
    configVersion: 1,
    headers: {},
    source: "sluice",
  };
}

describe("jittered", () => {
  it("stays within +/- the fraction and spreads its values", () => {
    const values = Array.from({ length: 2_000 }, () => jittered(10_000, 0.1));
    expect(Math.min(...values)).toBeGreaterThanOrEqual(9_000);
    expect(Math.max(...values)).toBeLessThanOrEqual(11_000);
    // both halves of the range are used (not a constant offset)
    expect(values.filter((v) => v < 10_000).length).toBeGreaterThan(500);
    expect(values.filter((v) => v > 10_000).length).toBeGreaterThan(500);
  });

  it("defaults to 10%, and 0 turns it off", () => {
    const values = Array.from({ length: 500 }, () => jittered(1_000, undefined));
    expect(Math.max(...values) - Math.min(...values)).toBeGreaterThan(50);
    expect(Math.max(...values)).toBeLessThanOrEqual(1_100);
    expect(jittered(1_000, 0)).toBe(1_000);
    expect(jittered(0, 0.5)).toBe(0);
  });
});

describe("checkDenyOptions", () => {
  it("names the field of a bad option", () => {
    expect(() => checkDenyOptions({ onDenied: "teapot" as "drop" })).toThrow(/^onDenied:/);
    expect(() => checkDenyOptions({ jitter: -0.1 })).toThrow(/^jitter:/);
    expect(() => checkDenyOptions({ jitter: Number.NaN })).toThrow(/^jitter:/);
    expect(() => checkDenyOptions({ queue: { maxWaitMs: Infinity } })).toThrow(/^queue.maxWaitMs:/);
    expect(() => checkDenyOptions({ maxWaitMs: -1 })).toThrow(/^maxWaitMs:/);
    expect(() => checkDenyOptions({ onDenied: "queue", queue: { maxSize: 5 }, jitter: 0 })).not.toThrow();
  });
});

describe("overLimit", () => {
  it("is true for rate limits and a delay too long to wait, false for who the caller is", () => {
    expect(overLimit(decision(false, 100), 10_000)).toBe(true);
    expect(overLimit(decision(false, null, "cost_exceeds_capacity"), 10_000)).toBe(true);
    expect(overLimit(decision(false, null, "unknown_key"), 10_000)).toBe(false);
    expect(overLimit({ ...decision(true, null), waitMs: 20_000 }, 10_000)).toBe(true);
    expect(overLimit({ ...decision(true, null), waitMs: 500 }, 10_000)).toBe(false);
  });
});

describe("queued", () => {
  it("checks again after the retry and returns the admission", async () => {
    let asked = 0;
    const result = await queued({ jitter: 0 }, decision(false, 20), async () => decision(++asked >= 2, 20));
    expect(result.allowed).toBe(true);
    expect(asked).toBe(2);
  });

  it("does not wait for a retry beyond queue.maxWaitMs", async () => {
    let asked = 0;
    const started = performance.now();
    const result = await queued({ queue: { maxWaitMs: 100 } }, decision(false, 60_000), async () => {
      asked++;
      return decision(true, null);
    });
    expect(result.allowed).toBe(false);
    expect(asked).toBe(0);
    expect(performance.now() - started).toBeLessThan(50);
  });

  it("holds at most queue.maxSize requests of one middleware at once", async () => {
    const options = { queue: { maxSize: 2 }, jitter: 0 };
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const again = async (): Promise<CheckResult> => {
      await gate;
      return decision(true, null);
    };
    const held = [queued(options, decision(false, 1), again), queued(options, decision(false, 1), again)];
    const third = await queued(options, decision(false, 1), again);
    expect(third.allowed).toBe(false); // answered at once: the queue is full
    release();
    expect((await Promise.all(held)).map((r) => r.allowed)).toEqual([true, true]);
    // the places are free again
    expect((await queued(options, decision(false, 1), again)).allowed).toBe(true);
  });
});
