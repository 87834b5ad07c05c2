import { describe, expect, it } from "vitest";
import { parseRateLimit } from "ratelimit-header-parser";
import { flavourOf } from "@/lib/check/headers";
import { renderBody } from "@/lib/check/render/rendered";
import type { HeaderFlavour } from "@/lib/shared/config-terms";
import { body, limitReport } from "./fixtures";

// Each single-valued flavour's exact lines, its binding limit, and what a real parser of
// draft-6/7 and X-RateLimit headers (ratelimit-header-parser) reads back from them.

const NOW = 1_790_000_000_000;

/** Header lines ("name: value\r\n") as an object with lower-case names. */
function fields(lines: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines.split("\r\n")) {
    if (line === "") continue;
    const at = line.indexOf(": ");
    out[line.slice(0, at).toLowerCase()] = line.slice(at + 2);
  }
  return out;
}

const headersOf = (
  flavour: HeaderFlavour,
  limits = [limitReport("rpm", { limit: 100, windowMs: 60_000, remaining: 50, resetMs: 29_001 })],
) => fields(renderBody(body(limits), flavour, NOW).headers);

describe("header flavours", () => {
  it("draft-7: one RateLimit field with limit, remaining and reset, and its policy", () => {
    expect(headersOf("draft-7")).toEqual({
      "ratelimit-policy": "100;w=60",
      ratelimit: "limit=100, remaining=50, reset=30",
    });
  });

  it("draft-6: RateLimit-Limit, -Remaining, -Reset and the policy", () => {
    expect(headersOf("draft-6")).toEqual({
      "ratelimit-policy": "100;w=60",
      "ratelimit-limit": "100",
      "ratelimit-remaining": "50",
      "ratelimit-reset": "30",
    });
  });

  it("legacy: X-RateLimit-* with the reset in seconds and Used", () => {
    expect(headersOf("legacy")).toEqual({
      "x-ratelimit-limit": "100",
      "x-ratelimit-remaining": "50",
      "x-ratelimit-reset": "30",
      "x-ratelimit-used": "50",
    });
  });

  it("legacy-epoch: the reset as a Unix time in seconds, rounded up", () => {
    expect(headersOf("legacy-epoch")["x-ratelimit-reset"]).toBe(String(Math.ceil((NOW + 29_001) / 1000)));
  });

  it("draft-11 stays the structured lists", () => {
    expect(headersOf("draft-11")).toEqual({
      "ratelimit-policy": '"rpm";q=100;w=60',
      ratelimit: '"rpm";r=50;t=30',
    });
  });

  it("reports the binding limit: the least remaining share, a denying one first, then the later reset", () => {
    const second = limitReport("rps", { limit: 10, windowMs: 1_000, remaining: 4, resetMs: 500 });
    const minute = limitReport("rpm", { limit: 1_000, windowMs: 60_000, remaining: 300, resetMs: 40_000 });
    // 4/10 = 40% left against 30%: the minute binds although the second has fewer left
    expect(headersOf("draft-7", [second, minute]).ratelimit).toBe("limit=1000, remaining=300, reset=40");
    const denying = { ...second, remaining: 0, allowed: false };
    expect(headersOf("draft-7", [minute, denying]).ratelimit).toBe("limit=10, remaining=0, reset=1");
    const early = limitReport("a", { limit: 10, remaining: 5, resetMs: 1_000 });
    const late = limitReport("b", { limit: 20, remaining: 10, resetMs: 9_000 });
    expect(headersOf("draft-6", [early, late])["ratelimit-limit"]).toBe("20");
    expect(headersOf("draft-6", [late, early])["ratelimit-limit"]).toBe("20");
  });

  it("leaves out shadow and unevaluated limits, and sends nothing when none is left", () => {
    const shadow = limitReport("s", { mode: "shadow", remaining: 0, limit: 1 });
    const degraded = limitReport("d", { remaining: null, resetMs: null });
    expect(headersOf("legacy", [shadow, degraded])).toEqual({});
    expect(headersOf("legacy", [shadow, limitReport("kept", { limit: 7 })])["x-ratelimit-limit"]).toBe("7");
  });

  it("keeps Retry-After on a denial, in every flavour", () => {
    for (const flavour of ["draft-7", "draft-6", "legacy", "legacy-epoch"] as const) {
      const denied = body([limitReport("rpm", { remaining: 0, allowed: false })], {
        allowed: false,
        reason: "rate_limited",
        retryAfterMs: 1_200,
      });
      expect(fields(renderBody(denied, flavour, NOW).headers)["retry-after"], flavour).toBe("2");
    }
  });

  it("is read back by ratelimit-header-parser", () => {
    for (const flavour of ["draft-7", "draft-6", "legacy", "legacy-epoch"] as const) {
      const before = Date.now();
      const parsed = parseRateLimit(headersOf(flavour));
      expect(parsed, flavour).toMatchObject({ limit: 100, remaining: 50, used: 50 });
      const reset = parsed?.reset?.getTime() ?? 0;
      if (flavour === "legacy-epoch") expect(reset).toBe(Math.ceil((NOW + 29_001) / 1000) * 1000);
      else {
        expect(reset).toBeGreaterThanOrEqual(before + 30_000 - 1_000);
        expect(reset).toBeLessThanOrEqual(Date.now() + 30_000);
      }
    }
  });

  it("reads a tenant's flavour, the default for none or an unknown one", () => {
    expect(flavourOf({ headers: "legacy" })).toBe("legacy");
    expect(flavourOf({})).toBe("draft-11");
    expect(flavourOf(null)).toBe("draft-11");
    expect(flavourOf({ headers: "draft-99" as HeaderFlavour })).toBe("draft-11");
  });
});
