// consistency / syncEvery in the document: defaults, and every refusal naming its field.

import { describe, expect, it } from "vitest";
import { validateDocument } from "@/lib/control/config/document";

const plans = [{ name: "p", limits: [] }];

function errorsOf(limit: Record<string, unknown>): Array<{ path: string; message: string }> {
  const result = validateDocument(
    {
      tenants: [
        { slug: "a", plan: "p", limits: [{ name: "x", by: "tenant", limit: 10, window: "1s", ...limit }] },
      ],
    },
    { plans },
  );
  return result.ok ? [] : result.errors;
}

describe("local limits in the document", () => {
  it("accepts local fixed_window, sliding_window and token_bucket with a syncEvery", () => {
    for (const algorithm of ["fixed_window", "sliding_window", "token_bucket"]) {
      expect(errorsOf({ algorithm, consistency: "local", syncEvery: "100ms" })).toEqual([]);
    }
    expect(errorsOf({ algorithm: "gcra", consistency: "exact" })).toEqual([]);
  });

  it("refuses an unknown consistency, naming the field", () => {
    expect(errorsOf({ algorithm: "fixed_window", consistency: "eventual" })).toEqual([
      { path: "tenants[0].limits[0].consistency", message: "must be one of exact, local" },
    ]);
  });

  it("refuses syncEvery out of bounds or malformed", () => {
    for (const syncEvery of ["5ms", "2m", "fast", 0, -1]) {
      const errors = errorsOf({ algorithm: "fixed_window", consistency: "local", syncEvery });
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ path: "tenants[0].limits[0].syncEvery" });
      expect(errors[0]?.message).toContain("10ms to 60s");
    }
  });

  it("refuses local for an algorithm that cannot merge increments", () => {
    for (const algorithm of ["gcra", "leaky_bucket", "sliding_log"]) {
      const errors = errorsOf({ algorithm, consistency: "local" });
      expect(errors).toEqual([
        {
          path: "tenants[0].limits[0].consistency",
          message: `consistency local works only with algorithm fixed_window, sliding_window, token_bucket, and this limit's algorithm is ${algorithm}`,
        },
      ]);
    }
  });

  it("refuses syncEvery without consistency local", () => {
    expect(errorsOf({ algorithm: "fixed_window", syncEvery: "100ms" })).toEqual([
      {
        path: "tenants[0].limits[0].syncEvery",
        message:
          "syncEvery applies only with consistency: local, and this limit's consistency is exact (the default)",
      },
    ]);
  });
});
