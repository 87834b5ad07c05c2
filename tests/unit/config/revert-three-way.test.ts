// Reverting one recorded change on today's value: what it did comes back out where nothing
// changed it since; anything it touched that changed since is a conflict.
import { describe, expect, it } from "vitest";
import { revertValue } from "@/lib/control/audit/revert-three-way";

const limit = (name: string, value: number) => ({ name, by: "key", limit: value, window: "1s" });
const tenant = (limits: object[], keys: object[] = []) => ({ slug: "acme", plan: "free", limits, keys });

describe("revertValue", () => {
  it("gives back the before when nothing changed since", () => {
    const before = tenant([limit("api", 100)]);
    const after = tenant([limit("api", 200)]);
    expect(revertValue(after, before, after)).toEqual({ ok: true, value: before });
  });

  it("keeps later changes of other things", () => {
    const before = tenant([limit("api", 100), limit("search", 5)]);
    const after = tenant([limit("api", 200), limit("search", 5)]);
    const now = tenant([limit("api", 200), limit("search", 9), limit("new", 1)], [{ name: "k", limits: [] }]);
    expect(revertValue(now, before, after)).toEqual({
      ok: true,
      value: tenant([limit("api", 100), limit("search", 9), limit("new", 1)], [{ name: "k", limits: [] }]),
    });
  });

  it("puts back a deleted item after its old neighbour and removes an added one", () => {
    const before = tenant([limit("a", 1), limit("b", 2), limit("c", 3)]);
    const after = tenant([limit("a", 1), limit("c", 3), limit("d", 4)]);
    expect(revertValue(after, before, after)).toEqual({ ok: true, value: before });
  });

  it("refuses when a later change touched the same field, naming it", () => {
    const before = tenant([], [{ name: "backend", limits: [limit("api", 100)] }]);
    const after = tenant([], [{ name: "backend", limits: [limit("api", 200)] }]);
    const now = tenant([], [{ name: "backend", limits: [limit("api", 300)] }]);
    expect(revertValue(now, before, after)).toEqual({
      ok: false,
      conflicts: [
        { path: "keys[name=backend].limits[name=api].limit", now: 300, changedTo: 200, revertsTo: 100 },
      ],
    });
  });

  it("refuses to bring back an item deleted since when the change had edited it", () => {
    const before = tenant([limit("api", 100)]);
    const after = tenant([limit("api", 200)]);
    const result = revertValue(tenant([]), before, after);
    expect(result.ok).toBe(false);
  });
});
