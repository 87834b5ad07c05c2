// A refused document is answered with its first errors by path and the count of all: one
// error per unknown key made 720 KB of YAML an 8.9 MB answer built on the app's event loop.
import { describe, expect, it } from "vitest";
import { checkText, MAX_LISTED_ERRORS } from "@/lib/control/config/document/check-text";

const context = { plans: [{ name: "free", limits: [] }], routes: [] };

function unknownKeys(n: number): string {
  return (
    "tenants:\n  - slug: t\n    plan: free\n" + Array.from({ length: n }, (_, i) => `    k${i}: 1`).join("\n")
  );
}

describe("errors listed for a refused document", () => {
  it("lists the first 200 by path, with their lines, and counts every error", () => {
    const result = checkText({ text: unknownKeys(1_000), format: "yaml", context, maxValues: 660_000 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.total).toBe(1_000);
    expect(result.errors).toHaveLength(MAX_LISTED_ERRORS);
    expect(result.errors[0]).toMatchObject({ path: "tenants[0].k0", line: 4 });
    expect(result.errors.at(-1)?.path).toBe(`tenants[0].k${MAX_LISTED_ERRORS - 1}`);
  });

  it("lists every error when there are no more than 200", () => {
    const result = checkText({ text: unknownKeys(3), format: "yaml", context, maxValues: 660_000 });
    expect(result).toMatchObject({ ok: false, total: 3 });
    if (!result.ok)
      expect(result.errors.map((e) => e.path)).toEqual(["tenants[0].k0", "tenants[0].k1", "tenants[0].k2"]);
  });
});
