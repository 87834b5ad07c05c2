import { describe, expect, it } from "vitest";
import { simulate, spread, type Demand } from "@/lib/control/replay/simulate";
import { replayRequestSchema, type ReplayRule } from "@/lib/control/replay/types";

// The replay's arithmetic on small hand-checked cases, and its caps.

const rule = (algorithm: ReplayRule["algorithm"], limit: number, windowMs: number): ReplayRule => ({
  algorithm,
  limit,
  windowMs,
  burst: null,
  action: "reject",
  maxDelayMs: null,
});
const demand = (owner: string, second: number, count: number): Demand => ({
  owner,
  second,
  count,
  key: owner,
  subject: null,
  route: "GET /x",
});

describe("replay simulation", () => {
  it("spreads a second's checks evenly, entries interleaved", () => {
    const times = spread(10, [demand("a", 10, 2), demand("b", 10, 4)]).map(([ms, d]) => `${ms}${d.owner}`);
    expect(times).toEqual(["10000a", "10000b", "10250b", "10500a", "10500b", "10750b"]);
  });

  it("a fixed window of 5 per second over 3 seconds of 8 checks rejects 9; no current limit rejects none", async () => {
    const sim = await simulate(
      [demand("a", 100, 8), demand("a", 101, 8), demand("a", 102, 8)],
      null,
      rule("fixed_window", 5, 1_000),
      { stepMs: 60_000 },
    );
    const total = [...sim.points.values()].reduce((s, p) => s + p.proposedRejected, 0);
    expect(total).toBe(9);
    expect([...sim.points.values()].every((p) => p.currentRejected === 0)).toBe(true);
    expect(sim.rows.find((r) => r.kind === "key" && r.name === "a")).toMatchObject({
      checks: 24,
      proposedRejected: 9,
    });
  });

  it("owners have counters of their own", async () => {
    const sim = await simulate(
      [demand("a", 1, 3), demand("b", 1, 3)],
      rule("fixed_window", 1, 60_000),
      rule("fixed_window", 2, 60_000),
      {
        stepMs: 60_000,
      },
    );
    const point = [...sim.points.values()][0];
    expect(point).toMatchObject({ checks: 6, currentRejected: 4, proposedRejected: 2 });
  });

  it("stops at the checks cap and says so", async () => {
    const sim = await simulate([demand("a", 1, 1_000_000)], null, rule("gcra", 10, 1_000), {
      stepMs: 60_000,
      maxChecks: 5_000,
    });
    expect(sim.truncated).toBe(true);
    expect(sim.checks).toBe(5_000);
  });

  it("the request schema caps the range and names bad fields", () => {
    const base = { tenant: "t", by: "key", current: null, proposed: rule("gcra", 1, 1_000) };
    expect(replayRequestSchema.parse(base).minutes).toBe(60);
    const bad = replayRequestSchema.safeParse({ ...base, minutes: 61, by: "planet" });
    expect(bad.error?.issues.map((i) => i.path.join("."))).toEqual(expect.arrayContaining(["minutes", "by"]));
  });
});
