import { describe, expect, it } from "vitest";
import { parseReply } from "@/lib/limiter/script";

// The check scripts answer one string of integers (lua/common.lua encode_reply).
describe("parseReply", () => {
  it("reads integers, negative ones and 2^53 - 1 exactly", () => {
    expect(parseReply("1 1732345678901 0 -1 9007199254740991")).toEqual([
      1, 1732345678901, 0, -1, 9007199254740991,
    ]);
  });

  it("refuses what encode_reply never writes", () => {
    for (const bad of ["1.5", "1e+15", "1  2", " 1", "1 ", "--1", "1-", "", "x"]) {
      expect(() => parseReply(bad), bad).toThrow(/unreadable reply|not a string/);
    }
    expect(() => parseReply(["1", "2"])).toThrow(/not a string/);
  });
});
