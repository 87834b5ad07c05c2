import { describe, expect, it } from "vitest";
import { TtlLru } from "@/lib/check/ttl-lru";
import { answerFor, DenyCache } from "@/lib/check/deny-cache";
import { DecisionTemplate } from "@/lib/check/render/decision-template";
import { compiledLimit, denial, denialTemplate as template } from "./fixtures";

function clock(start = 1_000) {
  const state = { now: start };
  return { state, now: () => state.now };
}

describe("TtlLru (negative cache)", () => {
  it("forgets entries after their time to live", () => {
    const { state, now } = clock();
    const cache = new TtlLru<true>(10, 100, now);
    cache.set("a", true);
    state.now += 99;
    expect(cache.get("a")).toBe(true);
    state.now += 1;
    expect(cache.get("a")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("stays within its capacity, dropping the least recently used", () => {
    const cache = new TtlLru<number>(3, 1_000, clock().now);
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("c", 3);
    expect(cache.get("a")).toBe(1); // a is now the newest
    cache.set("d", 4);
    expect(cache.size).toBe(3);
    expect(cache.get("b")).toBeUndefined();
    expect([cache.get("a"), cache.get("c"), cache.get("d")]).toEqual([1, 3, 4]);
    for (let i = 0; i < 10_000; i++) cache.set(`k${i}`, i);
    expect(cache.size).toBe(3);
  });

  it("keeps an entry that is read through a flood of new keys (second chance)", () => {
    const cache = new TtlLru<number>(100, 1_000, clock().now);
    cache.set("hot", 1);
    for (let i = 0; i < 10_000; i++) {
      expect(cache.get("hot")).toBe(1);
      cache.set(`once${i}`, i);
      expect(cache.size).toBeLessThanOrEqual(100);
    }
    // a key read once and never again goes within one pass
    expect(cache.get("once0")).toBeUndefined();
    expect(cache.get("once9999")).toBe(9_999);
  });

  it("refreshes an entry in place: a new value and time to live", () => {
    const { state, now } = clock();
    const cache = new TtlLru<number>(3, 100, now);
    cache.set("a", 1);
    state.now += 90;
    cache.set("a", 2);
    state.now += 90;
    expect([cache.get("a"), cache.size]).toEqual([2, 1]);
  });

  it("is emptied by clear (a config change)", () => {
    const cache = new TtlLru<true>(3, 1_000, clock().now);
    cache.set("a", true);
    cache.clear();
    expect(cache.get("a")).toBeUndefined();
  });
});

describe("DenyCache", () => {
  it("says when it holds nothing, so checks skip building a signature to look up", () => {
    const { state, now } = clock();
    const cache = new DenyCache(100, now);
    expect(cache.empty).toBe(true);
    cache.remember("allowed", 1, denial(null), state.now);
    expect(cache.empty).toBe(true);
    cache.remember("sig", 1, denial(500), state.now);
    expect(cache.empty).toBe(false);
    cache.clear();
    expect(cache.empty).toBe(true);
  });

  it("answers the same check with the same cost until its retry time", () => {
    const { state, now } = clock();
    const cache = new DenyCache(100, now);
    cache.remember("sig", 2, denial(500), state.now);
    state.now += 10;
    expect(cache.lookup("sig", 2, template)).toBeDefined();
    expect(cache.lookup("sig", 7, template)).toBeUndefined(); // may exceed a capacity: Redis says which
    expect(cache.lookup("sig", 1, template)).toBeUndefined(); // a smaller cost may pass
    expect(cache.lookup("other", 2, template)).toBeUndefined();
    // another shape (its tenant changed since): the denial no longer answers
    const rebuilt = new DecisionTemplate(
      [compiledLimit("key-rps", "key", { algorithm: "gcra" })],
      { tenant: "acme", route: null },
      2,
    );
    expect(cache.lookup("sig", 2, rebuilt)).toBeUndefined();
    state.now += 489;
    expect(cache.lookup("sig", 2, template)).toBeDefined();
    state.now += 1; // sentAt + retryAfterMs
    expect(cache.lookup("sig", 2, template)).toBeUndefined();
  });

  it("measures the retry time from when the call was sent, not when the answer came", () => {
    const { state, now } = clock();
    const cache = new DenyCache(100, now);
    const sentAt = state.now;
    state.now += 30; // the round trip
    cache.remember("sig", 1, denial(100), sentAt);
    state.now = sentAt + 100;
    expect(cache.lookup("sig", 1, template)).toBeUndefined();
  });

  it("keeps only rate_limited denials with a retry time", () => {
    const { state, now } = clock();
    const cache = new DenyCache(100, now);
    cache.remember("never", 1, denial(null), state.now);
    cache.remember("capacity", 1, denial(null, "cost_exceeds_capacity"), state.now);
    cache.remember("zero", 1, denial(0), state.now);
    cache.remember("allowed", 1, denial(100, "ok"), state.now);
    for (const sig of ["never", "capacity", "zero", "allowed"])
      expect(cache.lookup(sig, 1, template)).toBeUndefined();
  });

  it("ages the stored decision's times", () => {
    const { state, now } = clock();
    const cache = new DenyCache(100, now);
    cache.remember("sig", 1, denial(500), state.now);
    state.now += 200;
    const entry = cache.lookup("sig", 1, template);
    expect(entry).toBeDefined();
    if (!entry) return;
    const aged = answerFor(entry, state.now);
    const body = JSON.parse(aged.json) as {
      retryAfterMs: number;
      resetMs: number;
      limits: Array<{ resetMs: number }>;
    };
    expect(body.retryAfterMs).toBe(300);
    expect(body.resetMs).toBe(700);
    expect(body.limits[0]?.resetMs).toBe(700);
    expect(aged.allowed).toBe(false);
    expect(aged.headers).toContain("retry-after: 1\r\n");
  });

  it("is emptied by clear", () => {
    const { state, now } = clock();
    const cache = new DenyCache(100, now);
    cache.remember("sig", 1, denial(500), state.now);
    cache.clear();
    expect(cache.lookup("sig", 1, template)).toBeUndefined();
  });
});
