import { describe, expect, it } from "vitest";
import { z } from "zod";
import { bucketStarts, MAX_POINTS, UsageParams } from "@/lib/control/api/usage-params";

const T0 = Date.UTC(2026, 10, 22, 10, 0, 0);

function pathsOf(input: Record<string, string>): string[] {
  const result = UsageParams.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join("."));
}

describe("UsageParams", () => {
  it("reads ISO times and epoch milliseconds alike", () => {
    const iso = UsageParams.parse({
      from: "2026-11-22T10:00:00Z",
      to: "2026-11-22T11:00:00.000+00:00",
      step: "1m",
    });
    const ms = UsageParams.parse({ from: String(T0), to: String(T0 + 3_600_000), step: "60000" });
    expect(iso).toMatchObject({ fromMs: T0, toMs: T0 + 3_600_000, stepMs: 60_000 });
    expect(ms).toMatchObject({ fromMs: T0, toMs: T0 + 3_600_000, stepMs: 60_000 });
  });

  it("defaults to the last hour and a step giving at most 1000 points", () => {
    const parsed = UsageParams.parse({});
    expect(parsed.toMs - parsed.fromMs).toBe(3_600_000);
    expect(parsed.stepMs).toBe(60_000);
    const month = UsageParams.parse({ from: String(T0 - 30 * 86_400_000), to: String(T0) });
    expect((month.toMs - month.fromMs) / month.stepMs).toBeLessThanOrEqual(1_000);
  });

  it.each([
    [{ step: "999ms" }, "step"],
    [{ step: "1s" }, null],
    [{ step: "1d" }, null],
    [{ step: "25h" }, "step"],
    [{ step: "1.5s" }, "step"],
    [{ from: "last tuesday" }, "from"],
    [{ to: "2026-11-22 10:00" }, "to"],
    [{ from: String(T0), to: String(T0) }, "from"],
    [{ from: String(T0 - 500 * 86_400_000), to: String(T0), step: "1d" }, "from"],
    [{ from: String(T0 - (MAX_POINTS + 1) * 1_000), to: String(T0), step: "1s" }, "step"],
    [{ key: "k1" }, "key"],
    [{ tenant: "ACME" }, "tenant"],
    [{ extra: "1" }, ""],
  ])("%j -> error at %s", (input, path) => {
    const paths = pathsOf(input as Record<string, string>);
    if (path === null) expect(paths).toEqual([]);
    else expect(paths[0] ?? "<none>").toBe(path);
  });

  it("is a zod schema usable with parse errors", () => {
    expect(() => UsageParams.parse({ step: "0" })).toThrow(z.ZodError);
  });
});

describe("bucketStarts", () => {
  it("aligns the first bucket down to the step and stops before to", () => {
    expect(bucketStarts(T0 + 30_000, T0 + 180_000, 60_000)).toEqual([T0, T0 + 60_000, T0 + 120_000]);
    expect(bucketStarts(T0, T0, 60_000)).toEqual([]);
  });
});
