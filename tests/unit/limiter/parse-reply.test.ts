import { describe, expect, it } from "vitest";
import { parseReply } from "@/lib/check/limiter/script";

// The check scripts answer an array of integers (lua/run-check.lua).
describe("parseReply", () => {
  it("takes integers, negative ones and 2^53 - 1 exactly", () => {
    expect(parseReply([1, 1732345678901, 0, -1, 9007199254740991])).toEqual([
      1, 1732345678901, 0, -1, 9007199254740991,
    ]);
    expect(parseReply([])).toEqual([]);
  });

  it("refuses what the scripts never answer", () => {
    expect(() => parseReply("1 2")).toThrow(/not an array/);
    expect(() => parseReply(null)).toThrow(/not an array/);
    for (const bad of [[1.5], ["1"], [null], [2 ** 53], [Number.NaN]]) {
      expect(() => parseReply(bad), JSON.stringify(bad)).toThrow(/not an integer/);
    }
  });
});
