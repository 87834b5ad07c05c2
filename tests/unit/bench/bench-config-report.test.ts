import { describe, expect, it } from "vitest";
import { percentile, spread } from "@/scripts/bench/config/stats";
import { table } from "@/scripts/bench/config/report";
import { emptyResult, type SizeResult } from "@/scripts/bench/config/run-size";

const empty = emptyResult;

describe("bench:config statistics", () => {
  it("takes nearest-rank percentiles: p99 of 50 samples is the worst", () => {
    const samples = Array.from({ length: 50 }, (_, i) => i + 1);
    expect(percentile(samples, 50)).toBe(25);
    expect(percentile(samples, 99)).toBe(50);
    expect(spread([10, 60, 51, 50]).over50).toBe(2);
  });
});

describe("bench:config table", () => {
  it("prints a cut import as cut and judges the goals on the largest size", () => {
    const small: SizeResult = {
      ...empty(10),
      imported: { whole: { ms: 2_000 }, documentBytes: 13_000, parts: null, enforcedMs: 50, complete: true },
      keyBytes: { config: 1_000, audit: 200 },
    };
    const large: SizeResult = {
      ...empty(10_000),
      imported: {
        whole: { refused: "413 payload_too_large after 1.8 s" },
        documentBytes: 13_000_000,
        parts: { cutMs: 300_000, done: 3_500 },
        enforcedMs: null,
        complete: false,
      },
      notes: ["keys failed: no tenants"],
    };
    const text = table([small, large]);
    const row = (start: string) => text.split("\n").find((line) => line.startsWith(`| ${start}`)) ?? "";
    expect(row("whole import")).toContain("| 2.0 s (0.0 MB) | refused 413 payload_too_large");
    expect(row("whole import")).toMatch(/<= 30 s: MISS \|$/);
    expect(row("import in PUTs")).toContain("> 300 s (cut), 3,500 tenants in");
    // the key's bytes were measured at 10 tenants only: the 10,000 column decides, and has none
    expect(row("bytes of the version of a key")).toContain(
      "1200 B (1000 B + 200 B) | - | <= 2 KB: not measured",
    );
    expect(text).toContain("goal (at 10,000)");
    expect(text).toContain("- 10000 tenants: keys failed: no tenants");
  });
});
