import { describe, expect, it } from "vitest";
import { ReferenceLimiter } from "@/lib/check/limiter/reference/model";
import { slidingWindow } from "@/lib/check/limiter/reference/windows";
import type { LimitSpec } from "@/lib/check/limiter/types";
import { rule, spec } from "./rules";

// The reference model against cases computed by hand from docs/algorithms.md.

function harness() {
  let now = 0;
  const model = new ReferenceLimiter(() => now);
  return {
    at(ms: number) {
      now = ms;
      return this;
    },
    check(limits: LimitSpec[], cost = 1, dryRun = false) {
      return model.check(limits, { cost, dryRun });
    },
  };
}

const one = (r: Parameters<typeof spec>[2]) => [spec("t", "l", r)];

describe("sliding_window", () => {
  const r = rule("sliding_window", 10, 60_000);

  it("rejects the classic case: 9 in the previous minute, 5 in this one, 25% into it, limit 10", () => {
    // 9 * 0.75 + 5 + 1 = 12.75 > 10
    const state = { idx: 1n, curr: 5n, prev: 9n };
    expect(slidingWindow.look(state, r, 1n, 60_000n + 15_000n).admits).toBe(false);
    expect(slidingWindow.remaining(state, r, 75_000n)).toBe(0n);
    // with 4 in the previous minute: 3 + 5 + 1 = 9 <= 10, and floor(10 - 3 - 5) = 2 remain
    const lighter = { idx: 1n, curr: 5n, prev: 4n };
    expect(slidingWindow.look(lighter, r, 1n, 75_000n).admits).toBe(true);
    expect(slidingWindow.remaining(lighter, r, 75_000n)).toBe(2n);
  });

  it("admits as the previous window's weight falls, and says when", () => {
    const h = harness();
    for (let i = 0; i < 9; i++) expect(h.at(30_000 + i).check(one(r)).allowed).toBe(true);
    // 25% in: 6.75 + curr + 1 <= 10 lets 3 through
    for (let i = 0; i < 3; i++) expect(h.at(75_000).check(one(r)).allowed).toBe(true);
    const denied = h.at(75_000).check(one(r));
    expect(denied).toMatchObject({ allowed: false, reason: "rate_limited", remaining: 0 });
    // needs 9*(60000-e)/60000 <= 6: e >= 20000, i.e. 5000 ms later
    expect(denied.retryAfterMs).toBe(5_000);
    // back to full when the current window's 3 weigh nothing: end of the next window
    expect(denied.resetMs).toBe(120_000 - 15_000);
    expect(h.at(80_000).check(one(r)).allowed).toBe(true);
  });
});

describe("fixed_window", () => {
  it("lets 2L through around a window edge", () => {
    const h = harness();
    const r = rule("fixed_window", 5, 1_000);
    for (let i = 0; i < 5; i++) expect(h.at(999).check(one(r)).allowed).toBe(true);
    const edge = h.at(999).check(one(r));
    expect(edge).toMatchObject({ allowed: false, retryAfterMs: 1, resetMs: 1 });
    for (let i = 0; i < 5; i++) expect(h.at(1_000).check(one(r)).allowed).toBe(true);
    expect(h.at(1_000).check(one(r))).toMatchObject({ allowed: false, remaining: 0, retryAfterMs: 1_000 });
  });
});

describe("sliding_log", () => {
  it("is exact over (now-W, now]", () => {
    const h = harness();
    const r = rule("sliding_log", 3, 1_000);
    for (const t of [0, 100, 200]) expect(h.at(t).check(one(r)).allowed).toBe(true);
    expect(h.at(999).check(one(r))).toMatchObject({ allowed: false, retryAfterMs: 1, resetMs: 201 });
    expect(h.at(1_000).check(one(r))).toMatchObject({ allowed: true, remaining: 0 });
    // cost 2 needs the units of t=100 and t=200 gone: at 1200
    expect(h.at(1_000).check(one(r), 2)).toMatchObject({ allowed: false, retryAfterMs: 200 });
  });
});

describe("gcra", () => {
  it("with L=1 spaces checks a full window apart", () => {
    const h = harness();
    const r = rule("gcra", 1, 1_000);
    expect(h.at(0).check(one(r))).toMatchObject({ allowed: true, remaining: 0, resetMs: 1_000 });
    expect(h.at(500).check(one(r))).toMatchObject({ allowed: false, retryAfterMs: 500, resetMs: 500 });
    expect(h.at(1_000).check(one(r)).allowed).toBe(true);
  });

  it("with L>1 allows a burst of B, then one per T", () => {
    const h = harness();
    const r = rule("gcra", 5, 1_000); // T = 200, tau = 800
    const remaining = [4, 3, 2, 1, 0].map(() => h.at(0).check(one(r)).remaining);
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    expect(h.at(0).check(one(r))).toMatchObject({ allowed: false, retryAfterMs: 200, resetMs: 1_000 });
    expect(h.at(200).check(one(r))).toMatchObject({ allowed: true, remaining: 0 });
    const burst = rule("gcra", 5, 1_000, { burst: 10 });
    const h2 = harness();
    for (let i = 0; i < 10; i++) expect(h2.at(0).check(one(burst)).allowed).toBe(true);
    expect(h2.at(0).check(one(burst)).allowed).toBe(false);
  });
});

describe("token_bucket", () => {
  it("starts full at B and refills at L/W per ms", () => {
    const h = harness();
    const r = rule("token_bucket", 10, 1_000, { burst: 20 });
    expect(h.at(0).check(one(r), 20)).toMatchObject({ allowed: true, remaining: 0, resetMs: 2_000 });
    expect(h.at(50).check(one(r))).toMatchObject({ allowed: false, retryAfterMs: 50 });
    expect(h.at(100).check(one(r))).toMatchObject({ allowed: true, remaining: 0 });
    expect(h.at(650).check(one(r), 0 + 1)).toMatchObject({ allowed: true, remaining: 4 });
  });
});

describe("leaky_bucket", () => {
  it("drains the level at L/W per ms", () => {
    const h = harness();
    const r = rule("leaky_bucket", 10, 1_000);
    for (let i = 0; i < 10; i++) h.at(0).check(one(r));
    expect(h.at(0).check(one(r))).toMatchObject({ allowed: false, retryAfterMs: 100, resetMs: 1_000 });
    // level 7.5 at 250 ms: floor(10 - 7.5) = 2 remain before this check, 1 after it
    expect(h.at(250).check(one(r))).toMatchObject({ allowed: true, remaining: 1, resetMs: 850 });
  });
});

describe("action delay", () => {
  for (const algorithm of ["gcra", "leaky_bucket"] as const) {
    it(`${algorithm}: waits grow by T up to maxDelay, then reject reserving nothing`, () => {
      const h = harness();
      const r = rule(algorithm, 10, 1_000, { action: "delay", maxDelayMs: 500 });
      for (let i = 0; i < 10; i++) expect(h.at(0).check(one(r)).waitMs).toBe(0);
      const waits = [1, 2, 3, 4, 5].map(() => h.at(0).check(one(r)).waitMs);
      expect(waits).toEqual([100, 200, 300, 400, 500]);
      const over = h.at(0).check(one(r));
      expect(over).toMatchObject({ allowed: false, waitMs: 0, retryAfterMs: 100 });
      expect(h.at(0).check(one(r))).toMatchObject({ allowed: false, retryAfterMs: 100 });
      expect(h.at(100).check(one(r))).toMatchObject({ allowed: true, waitMs: 500 });
    });
  }
});

describe("several limits in one check", () => {
  it("consumes nothing anywhere when one enforce limit denies; shadow limits decide alone", () => {
    const h = harness();
    const key = spec("t", "key", rule("fixed_window", 2, 60_000));
    const tenant = spec("t", "tenant", rule("fixed_window", 5, 60_000), "t");
    const shadow = spec("t", "shadow", rule("fixed_window", 1, 60_000, { mode: "shadow" }));
    h.at(0).check([key, tenant, shadow]);
    const second = h.at(0).check([key, tenant, shadow]);
    expect(second).toMatchObject({ allowed: true, remaining: 0, deciding: 0 });
    expect(second.limits[2]).toMatchObject({ allowed: false, consumed: false, mode: "shadow" });
    const third = h.at(0).check([key, tenant, shadow]);
    expect(third).toMatchObject({
      allowed: false,
      reason: "rate_limited",
      deciding: 0,
      retryAfterMs: 60_000,
    });
    expect(third.limits[1]).toMatchObject({ allowed: true, consumed: false, remaining: 3 });
    expect(h.at(0).check([tenant]).remaining).toBe(2);
  });

  it("a shadow sliding log records only admitted checks (a denied check adds no entry)", () => {
    const h = harness();
    const gate = spec("t", "gate", rule("fixed_window", 2, 60_000));
    const log = spec("t", "log", rule("sliding_log", 100, 60_000, { mode: "shadow" }));
    const bucket = spec("t", "bucket", rule("token_bucket", 100, 60_000, { mode: "shadow" }));
    for (let i = 0; i < 10; i++) h.at(0).check([gate, log, bucket]);
    const denied = h.at(0).check([gate, log, bucket]);
    expect(denied.allowed).toBe(false);
    expect(denied.limits[1]).toMatchObject({ allowed: true, consumed: false, remaining: 98 });
    // other shadow limits still consume on their own verdict
    expect(denied.limits[2]).toMatchObject({ allowed: true, consumed: true, remaining: 89 });
  });

  it("answers cost_exceeds_capacity with no retry time, and dryRun stores nothing", () => {
    const h = harness();
    const r = rule("token_bucket", 10, 1_000, { burst: 15 });
    expect(h.at(0).check(one(r), 16)).toMatchObject({
      allowed: false,
      reason: "cost_exceeds_capacity",
      retryAfterMs: null,
    });
    expect(h.at(0).check(one(r), 15, true)).toMatchObject({ allowed: true, remaining: 0 });
    expect(h.at(0).check(one(r), 15)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it("with no limit at all is allowed with null figures", () => {
    expect(harness().check([])).toMatchObject({
      allowed: true,
      reason: "ok",
      deciding: null,
      remaining: null,
    });
  });
});
