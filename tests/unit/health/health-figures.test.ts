import { describe, expect, it } from "vitest";
import { addFigures, figuresSince, latencyQuantile, zeroFigures } from "@/lib/check/health/health-figures";
import { csvCell } from "@/lib/control/ops/decision-log-csv";
import { mergeSample } from "@/lib/control/ops/recent-sample";
import type { RecentEntry } from "@/lib/usage/recent";

describe("health figures", () => {
  it("reads quantiles within their bucket, and null without checks", () => {
    const buckets = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    expect(latencyQuantile(buckets, 0.5)).toBeNull();
    buckets[1] = 100; // all between 0.5 ms and 1 ms
    expect(latencyQuantile(buckets, 0.5)).toBeCloseTo(0.00075, 6);
    buckets[10] = 100; // half above the last bound: reported as that bound
    expect(latencyQuantile(buckets, 0.99)).toBe(1);
  });

  it("subtracts readings and adds fronts field by field", () => {
    const a = zeroFigures();
    a.requests = 10;
    a.causes.breaker_open = 3;
    a.latency[2] = 7;
    const b = addFigures(addFigures(zeroFigures(), a), a);
    expect(b.requests).toBe(20);
    const since = figuresSince(b, a);
    expect(since).toEqual(a);
  });
});

describe("decision log export and merge", () => {
  it("quotes CSV cells and defuses formulas", () => {
    expect(csvCell(null)).toBe("");
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvCell("-1+2,3")).toBe(`"'-1+2,3"`);
    expect(csvCell("203.0.113.9")).toBe("203.0.113.9");
  });

  it("counts a denial held by both lists once, newest first", () => {
    const entry = (at: number, outcome: RecentEntry["outcome"]): RecentEntry => ({
      at,
      keyId: null,
      route: null,
      subject: "s",
      outcome,
      reason: outcome === "allowed" ? "ok" : "rate_limited",
      deniedBy: null,
    });
    const denial = entry(2, "rejected");
    const merged = mergeSample({
      decisions: [denial, entry(1, "allowed")],
      notable: [entry(3, "degraded"), denial],
    });
    expect(merged.map((e) => e.at)).toEqual([3, 2, 1]);
  });
});
