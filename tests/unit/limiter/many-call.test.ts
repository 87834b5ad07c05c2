import { describe, expect, it } from "vitest";
import { buildManyCall, checkInt, prepareCheck } from "@/lib/check/limiter/evaluate-many";
import { rule, spec } from "./rules";

// A micro-batch's call sends each distinct rule once: tenants on one plan have rule objects
// of their own with equal values, and those must not each be sent (and parsed by Redis).
// The checks' integers go as one string, base 32 (lua/check-many.lua's header).

const request = { cost: 1, dryRun: false };

/** The checks' string read back as lua/check-many.lua reads it. */
function decode(text: string): number[] {
  const out: number[] = [];
  let v = 0;
  for (const byte of Buffer.from(text, "latin1")) {
    if (byte >= 80 && byte < 112) v = v * 32 + (byte - 80);
    else if (byte >= 48 && byte < 80) {
      out.push(v * 32 + (byte - 48));
      v = 0;
    } else throw new Error(`byte ${byte} outside the encoding`);
  }
  return out;
}

function call(...limitsPerCheck: Parameters<typeof spec>[][]) {
  const prepared = limitsPerCheck.map((limits) =>
    prepareCheck({ limits: limits.map((args) => spec(...args)), request }),
  );
  const { keys, args } = buildManyCall(prepared);
  return { keys, rules: args[1], checks: decode(String(args[args.length - 1])) };
}

describe("buildManyCall", () => {
  it("sends equal rules of different tenants (different objects) once", () => {
    const { keys, rules, checks } = call(
      [["tenant-a", "plan-rpm", rule("gcra", 100, 1_000), "k:1"]],
      [["tenant-b", "plan-rpm", rule("gcra", 100, 1_000), "k:2"]],
    );
    expect(keys).toHaveLength(2);
    expect(rules).toBe(1);
    // per check: cost, dryRun, n, then (key index, rule index)
    expect(checks).toEqual([1, 0, 1, 1, 1, 1, 0, 1, 2, 1]);
  });

  it("keeps rules apart when a value or the entry differs", () => {
    const { rules, checks } = call(
      [["tenant-a", "plan-rpm", rule("gcra", 100, 1_000), "k:1"]],
      [["tenant-b", "plan-rpm", rule("gcra", 200, 1_000), "k:2"]],
      [["tenant-c", "other-limit", rule("gcra", 100, 1_000), "k:3"]],
      [["tenant-d", "plan-rpm", rule("gcra", 100, 1_000, { mode: "shadow" }), "k:4"]],
    );
    expect(rules).toBe(4);
    expect(checks).toEqual([1, 0, 1, 1, 1, 1, 0, 1, 2, 2, 1, 0, 1, 3, 3, 1, 0, 1, 4, 4]);
  });
});

describe("checkInt", () => {
  it("reads back every integer the checks carry, up to a cost of 1e9", () => {
    const values = [0, 1, 31, 32, 33, 1_023, 1_024, 32_767, 32_768, 999_999_999, 1_000_000_000];
    expect(decode(values.map(checkInt).join(""))).toEqual(values);
    expect(checkInt(31)).toBe("O");
    expect(checkInt(32)).toBe("Q0");
  });
});
