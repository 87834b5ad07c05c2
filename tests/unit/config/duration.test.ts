import { describe, expect, it } from "vitest";

import { formatDuration, parseDuration } from "@/lib/shared/duration";

describe("parseDuration", () => {
  it.each([
    ["250ms", 250],
    ["1s", 1_000],
    ["5m", 300_000],
    ["1h", 3_600_000],
    ["1d", 86_400_000],
    ["1500", 1_500],
    [" 2s ", 2_000],
    ["0s", 0],
    [1500, 1_500],
  ] as const)("%j -> %d ms", (input, ms) => {
    expect(parseDuration(input)).toBe(ms);
  });

  it.each(["", "1.5s", "1m30s", "-1s", "5 m", "1w", "s", "1S", "9999999999999999d"])(
    "rejects %j",
    (input) => {
      expect(parseDuration(input)).toBeNull();
    },
  );

  it("rejects numbers that are not whole non-negative milliseconds", () => {
    expect(parseDuration(-1)).toBeNull();
    expect(parseDuration(1.5)).toBeNull();
    expect(parseDuration(Number.NaN)).toBeNull();
  });
});

describe("formatDuration", () => {
  it.each([
    [0, "0ms"],
    [250, "250ms"],
    [1_000, "1s"],
    [1_500, "1500ms"],
    [90_000, "90s"],
    [300_000, "5m"],
    [5_400_000, "90m"],
    [3_600_000, "1h"],
    [86_400_000, "1d"],
    [31_536_000_000, "365d"],
  ])("%d ms -> %s", (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it("round-trips through parseDuration", () => {
    for (const ms of [1, 999, 1_000, 61_000, 7_200_000, 172_800_000, 123_456_789]) {
      expect(parseDuration(formatDuration(ms))).toBe(ms);
    }
  });

  it("refuses what is not a whole number of milliseconds", () => {
    expect(() => formatDuration(-1)).toThrow(RangeError);
    expect(() => formatDuration(0.5)).toThrow(RangeError);
  });
});
