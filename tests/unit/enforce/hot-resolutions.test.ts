import { describe, expect, it } from "vitest";
import { HotResolutions, hotKeyOf } from "@/lib/enforce/hot-resolutions";
import { matchLimits } from "@/lib/enforce/limit-specs";
import type { Resolved } from "@/lib/enforce/resolve";
import type { CheckInput } from "@/lib/enforce/types";
import type { CompiledTenant } from "@/lib/config/compile";
import { limitKey } from "@/lib/limiter/keys";
import { compiledLimit } from "./fixtures";

const input = (fields: Partial<CheckInput>): CheckInput => ({
  apiKey: null,
  tenant: null,
  key: null,
  route: null,
  subject: null,
  cost: 1,
  dryRun: false,
  ...fields,
});

function resolved(keyExpiresAt: number | null, limits = [compiledLimit("k", "key")]): Resolved {
  return {
    kind: "limits",
    tenant: { id: "T1", slug: "acme" } as CompiledTenant,
    keyName: "backend",
    keyId: "K1",
    route: null,
    keyExpiresAt,
    matched: matchLimits(limits, { tenantId: "T1", keyId: "K1", subject: null }),
  };
}

describe("hot resolutions", () => {
  it("give different checks different cache keys, however their text is split", () => {
    const keys = [
      input({ apiKey: "a\nb" }),
      input({ apiKey: "b", subject: "a" }),
      input({ apiKey: "b", subject: "a\n" }),
      input({ apiKey: "\nb", subject: "a" }),
      input({ tenant: "acme" }),
      input({ tenant: "acme", key: "backend" }),
      input({ apiKey: "acme\n" }),
      input({ apiKey: "x", route: "GET /a" }),
      input({ apiKey: "x", route: "GET /a", subject: "" }),
    ].map(hotKeyOf);
    expect(new Set(keys).size).toBe(keys.length);
    expect(hotKeyOf(input({ apiKey: "x", route: "GET /a" }))).toBe(
      hotKeyOf(input({ apiKey: "x", route: "GET /a" })),
    );
  });

  it("prepare the limiter's keys and rules once, with the deny cache's signature", () => {
    const hot = new HotResolutions();
    const entry = hot.remember("k", resolved(null), input({ apiKey: "x" }), 1);
    const spec = resolved(null).matched.specs[0];
    expect(entry.keys).toEqual([spec && limitKey(spec)]);
    expect(entry.rules).toHaveLength(1);
    expect(entry.signature).toBe("T1\nK1\n\n");
    expect(hot.get("k", () => 0)).toBe(entry);
    const shadow = hot.remember(
      "s",
      resolved(null, [compiledLimit("k", "key", { mode: "shadow" })]),
      input({}),
      1,
    );
    expect(shadow.signature).toBeNull();
  });

  it("drop an entry once its key has expired, and every entry on clear", () => {
    const hot = new HotResolutions();
    hot.remember("k", resolved(1_000), input({ apiKey: "x" }), 1);
    expect(hot.get("k", () => 999)).toBeDefined();
    expect(hot.get("k", () => 1_000)).toBeUndefined();
    expect(hot.size).toBe(0);
    hot.remember("k", resolved(null), input({ apiKey: "x" }), 1);
    hot.clear();
    expect(hot.get("k", () => 0)).toBeUndefined();
  });

  it("stay within their capacity, the oldest entry leaving first", () => {
    const hot = new HotResolutions(2);
    for (const key of ["a", "b", "c"]) hot.remember(key, resolved(null), input({ apiKey: key }), 1);
    expect(hot.size).toBe(2);
    expect(hot.get("a", () => 0)).toBeUndefined();
    expect(hot.get("c", () => 0)).toBeDefined();
  });

  it("refuse rules the limiter cannot count exactly, keeping nothing", () => {
    const hot = new HotResolutions();
    const huge = compiledLimit("k", "key", { limit: Number.MAX_SAFE_INTEGER, windowMs: 86_400_000 * 365 });
    expect(() => hot.remember("k", resolved(null, [huge]), input({}), 1)).toThrow(RangeError);
    expect(hot.size).toBe(0);
  });
});
