import { describe, expect, it } from "vitest";
import { alignPrevious, decided, previousWindow } from "@/lib/usage/read/previous-align";
import { ZERO_COUNTS } from "@/lib/usage/types";

// The usage charts' comparison: the previous period is the same length just before, and
// each current bucket shows the checks of the bucket one period earlier.

const MIN = 60_000;
const row = (t: number, allowed: number, rejected = 0) => ({ ...ZERO_COUNTS, t, allowed, rejected });

describe("the previous period", () => {
  it("is the same length, shifted by it, at the same step while per-second data lasts", () => {
    const current = { from: 100 * MIN, to: 115 * MIN, stepMs: 5_000 };
    expect(previousWindow(current, 0)).toEqual({
      from: 85 * MIN,
      to: 100 * MIN,
      stepMs: 5_000,
      shiftMs: 15 * MIN,
    });
    // older than the per-second retention: read in minutes
    expect(previousWindow(current, 90 * MIN).stepMs).toBe(MIN);
    expect(previousWindow({ from: 0, to: 1440 * MIN, stepMs: 5 * MIN }, 10_000 * MIN).stepMs).toBe(5 * MIN);
  });

  it("lays each previous bucket on the current bucket one period later", () => {
    const current = { from: 10 * MIN, to: 13 * MIN, stepMs: MIN };
    const previous = { stepMs: MIN, shiftMs: 3 * MIN };
    const rows = [row(7 * MIN, 4, 1), row(9 * MIN, 2), row(9 * MIN + 5_000, 1)];
    expect(alignPrevious(rows, current, previous)).toEqual([5, 0, 3]);
  });

  it("spreads a coarser previous bucket evenly over the finer current ones", () => {
    const current = { from: 2 * MIN, to: 3 * MIN, stepMs: 15_000 };
    const previous = { stepMs: MIN, shiftMs: MIN };
    expect(alignPrevious([row(MIN, 40)], current, previous)).toEqual([10, 10, 10, 10]);
  });

  it("counts decided checks: allowed, rejected and degraded, not shadow rejections", () => {
    expect(decided({ ...ZERO_COUNTS, allowed: 3, rejected: 2, degraded: 1, shadowRejected: 7 })).toBe(6);
  });
});
