import { describe, expect, it } from "vitest";
import { buildManyCall, prepareCheck } from "@/lib/limiter/evaluate-many";
import { rule, spec } from "./rules";

// A micro-batch's call sends each distinct rule once: tenants on one plan have rule objects
// of their own with equal values, and those must not each be sent (and parsed by Redis).

const request = { cost: 1, dryRun: false };

function call(...limitsPerCheck: Parameters<typeof spec>[][]) {
  const prepared = limitsPerCheck.map((limits) =>
    prepareCheck({ limits: limits.map((args) => spec(...args)), request }),
  );
  return buildManyCall(prepared);
}

describe("buildManyCall", () => {
  it("sends equal rules of different tenants (different objects) once", () => {
    const { keys, args } = call(
      [["tenant-a", "plan-rpm", rule("gcra", 100, 1_000), "k:1"]],
      [["tenant-b", "plan-rpm", rule("gcra", 100, 1_000), "k:2"]],
    );
    expect(keys).toHaveLength(2);
    expect(args[1]).toBe(1); // one rule
    // per check: cost, dryRun, n, then (key index, rule index)
    expect(args[args.length - 1]).toBe("1 0 1 1 1 1 0 1 2 1");
  });

  it("keeps rules apart when a value or the entry differs", () => {
    const { args } = call(
      [["tenant-a", "plan-rpm", rule("gcra", 100, 1_000), "k:1"]],
      [["tenant-b", "plan-rpm", rule("gcra", 200, 1_000), "k:2"]],
      [["tenant-c", "other-limit", rule("gcra", 100, 1_000), "k:3"]],
      [["tenant-d", "plan-rpm", rule("gcra", 100, 1_000, { mode: "shadow" }), "k:4"]],
    );
    expect(args[1]).toBe(4);
    expect(args[args.length - 1]).toBe("1 0 1 1 1 1 0 1 2 2 1 0 1 3 3 1 0 1 4 4");
  });
});
