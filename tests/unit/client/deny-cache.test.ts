import { describe, expect, it } from "vitest";
import { DenyCache, denyKey } from "@/packages/client/src/deny-cache";
import type { Decision } from "@sluice/client";

// The local deny path's rules: only rate_limited denials with a retry time, counted down,
// never past the retry time nor maxMs, the oldest evicted first.

const denied: Decision = {
  allowed: false,
  reason: "rate_limited",
  tenant: "t",
  key: "k",
  route: "GET /a",
  limit: 1,
  remaining: 0,
  resetMs: 3_000,
  retryAfterMs: 2_000,
  waitMs: 0,
  limits: [
    {
      name: "l",
      level: "key",
      by: "key",
      algorithm: "fixed_window",
      limit: 1,
      windowMs: 1_000,
      remaining: 0,
      resetMs: 3_000,
      allowed: false,
      mode: "enforce",
    },
  ],
  degraded: false,
  configVersion: 1,
};

describe("DenyCache", () => {
  it("answers a denial counted down until its retry time, then forgets it", () => {
    const cache = new DenyCache();
    cache.remember("x", denied, 1_000);
    expect(cache.lookup("x", 1_500)).toMatchObject({
      retryAfterMs: 1_500,
      resetMs: 2_500,
      limits: [{ resetMs: 2_500 }],
    });
    expect(cache.lookup("x", 3_000)).toBeNull();
    expect(cache.size).toBe(0);
  });

  it("keeps nothing but rate_limited denials with a retry time", () => {
    const cache = new DenyCache();
    cache.remember("a", { ...denied, allowed: true, reason: "ok", retryAfterMs: null }, 0);
    cache.remember("b", { ...denied, reason: "cost_exceeds_capacity", retryAfterMs: null }, 0);
    cache.remember("c", { ...denied, degraded: true }, 0);
    cache.remember("d", { ...denied, reason: "unknown_key" }, 0);
    expect(cache.size).toBe(0);
  });

  it("trusts an entry maxMs at most, and evicts the oldest past maxEntries", () => {
    const cache = new DenyCache({ maxMs: 100, maxEntries: 2 });
    cache.remember("a", denied, 0);
    expect(cache.lookup("a", 99)).not.toBeNull();
    expect(cache.lookup("a", 100)).toBeNull();
    cache.remember("a", denied, 0);
    cache.remember("b", denied, 0);
    cache.remember("c", denied, 0);
    expect([cache.lookup("a", 1), cache.lookup("b", 1) !== null, cache.lookup("c", 1) !== null]).toEqual([
      null,
      true,
      true,
    ]);
  });

  it("keys by credential, route, subject and cost", () => {
    const keys = new Set([
      denyKey({ apiKey: "k" }),
      denyKey({ apiKey: "k", route: "GET /a" }),
      denyKey({ apiKey: "k", subject: "s" }),
      denyKey({ apiKey: "k", cost: 2 }),
      denyKey({ tenant: "k" }),
      denyKey({ tenant: "t", key: "k" }),
    ]);
    expect(keys.size).toBe(6);
    expect(denyKey({ apiKey: "k", cost: 1 })).toBe(denyKey({ apiKey: "k" }));
  });
});
