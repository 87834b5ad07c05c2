import { describe, expect, it } from "vitest";
import { parseList } from "structured-headers";
import { rateLimitHeaders } from "@/lib/check/headers";
import { body, limitReport } from "./fixtures";

// The header fields are parsed back with a real RFC 9651 parser: a syntax slip fails here.

function items(text: string | null): Array<[unknown, Record<string, unknown>]> {
  if (text === null) return [];
  return parseList(text).map(([value, params]) => [value, Object.fromEntries(params)]);
}

describe("RateLimit headers (draft-11)", () => {
  it("has one item per enforce limit, q/w in the policy and r/t in RateLimit", () => {
    const headers = rateLimitHeaders(
      body([
        limitReport("key-rps", { limit: 100, windowMs: 1_000, remaining: 0, resetMs: 4_200 }),
        limitReport("tenant-rpm", { limit: 5_000, windowMs: 60_000, remaining: 4_999, resetMs: 59_001 }),
      ]),
    );
    expect(headers.policy).toBe('"key-rps";q=100;w=1, "tenant-rpm";q=5000;w=60');
    expect(items(headers.policy)).toEqual([
      ["key-rps", { q: 100, w: 1 }],
      ["tenant-rpm", { q: 5000, w: 60 }],
    ]);
    expect(items(headers.rateLimit)).toEqual([
      ["key-rps", { r: 0, t: 5 }],
      ["tenant-rpm", { r: 4999, t: 60 }],
    ]);
    expect(headers.retryAfter).toBeNull();
  });

  it("rounds sub-second windows and resets up, never to zero window", () => {
    const headers = rateLimitHeaders(body([limitReport("fast", { windowMs: 250, resetMs: 1 })]));
    expect(items(headers.policy)).toEqual([["fast", { q: 100, w: 1 }]]);
    expect(items(headers.rateLimit)).toEqual([["fast", { r: 5, t: 1 }]]);
    expect(items(rateLimitHeaders(body([limitReport("x", { resetMs: 0 })])).rateLimit)).toEqual([
      ["x", { r: 5, t: 0 }],
    ]);
  });

  it("leaves out shadow limits and limits Redis did not evaluate", () => {
    const headers = rateLimitHeaders(
      body([
        limitReport("shadowed", { mode: "shadow" }),
        limitReport("degraded", { remaining: null, resetMs: null }),
        limitReport("kept"),
      ]),
    );
    expect(items(headers.policy).map(([name]) => name)).toEqual(["kept"]);
    expect(rateLimitHeaders(body([limitReport("s", { mode: "shadow" })]))).toEqual({
      policy: null,
      rateLimit: null,
      retryAfter: null,
    });
  });

  it("sends Retry-After in whole seconds, rounded up, only on a denial with a retry time", () => {
    const denied = (retryAfterMs: number | null) =>
      rateLimitHeaders(
        body([limitReport("a", { allowed: false })], {
          allowed: false,
          reason: "rate_limited",
          retryAfterMs,
        }),
      ).retryAfter;
    expect(denied(4_200)).toBe("5");
    expect(denied(1)).toBe("1");
    expect(denied(3_000)).toBe("3");
    expect(denied(null)).toBeNull();
    expect(rateLimitHeaders(body([], { retryAfterMs: 500 })).retryAfter).toBeNull();
  });
});
