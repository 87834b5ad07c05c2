import { describe, expect, it } from "vitest";
import { dataStartMarker } from "@/lib/usage/read/data-start";
import { ZERO_COUNTS, type UsagePoint } from "@/lib/usage/types";

// "data starts here" is drawn only where it is true: inside the range, with no data before it.

const STEP = 300_000;
const series = (counts: number[]): UsagePoint[] =>
  counts.map((allowed, i) => ({ t: i * STEP, ...ZERO_COUNTS, allowed }));

describe("dataStartMarker", () => {
  it("marks a start inside the range when nothing was recorded before it", () => {
    expect(dataStartMarker(series([0, 0, 0, 4, 9]), 0, STEP, 3 * STEP + 10)).toBe(3 * STEP + 10);
    // the bucket holding the start may hold data: its checks came after the start
    expect(dataStartMarker(series([0, 0, 0, 4, 9]), 0, STEP, 3 * STEP - 10)).toBe(3 * STEP - 10);
  });
  it("draws nothing when the start is before the range (or in its first bucket), or unknown", () => {
    expect(dataStartMarker(series([1, 2]), STEP, STEP, 0)).toBeNull();
    expect(dataStartMarker(series([0, 2]), 0, STEP, STEP - 1)).toBeNull();
    expect(dataStartMarker(series([0, 2]), 0, STEP, null)).toBeNull();
  });
  it("draws nothing when data exists before the start (imported or restored usage)", () => {
    expect(dataStartMarker(series([5, 0, 0, 4]), 0, STEP, 3 * STEP)).toBeNull();
  });
});
