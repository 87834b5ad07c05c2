import { describe, expect, it } from "vitest";
import { buildShape } from "@/lib/check/check-shapes";
import { HotChecks, hotKeyOf, type HotCheck } from "@/lib/check/hot-checks";
import { TenantMarks, type TenantMark } from "@/lib/check/tenant-marks";
import { keyRecord, shapeSnapshot, shapeTarget } from "./shape-fixture";
import { checkInput as input } from "./tenants-fixture";

const snapshot = shapeSnapshot("T1");
const shape = buildShape(shapeTarget(snapshot), snapshot, true, 1);

const CURRENT: TenantMark = { current: true };

function entry(mark: TenantMark = CURRENT, expiresAt: number | null = null): HotCheck {
  const key = { ...keyRecord("backend", "K1"), expiresAt };
  const target = shapeTarget(snapshot, key);
  return { mark, shape, key, target, keys: null, keyJson: null };
}

describe("hotKeyOf", () => {
  it("leaves the subject out but not whether there is one", () => {
    const a = hotKeyOf(input({ apiKey: "sk_1", route: "GET /a", subject: "alice" }));
    expect(hotKeyOf(input({ apiKey: "sk_1", route: "GET /a", subject: "bob" }))).toBe(a);
    expect(hotKeyOf(input({ apiKey: "sk_1", route: "GET /a" }))).not.toBe(a);
  });

  it("tells apart every apiKey, route, tenant and key", () => {
    const keys = [
      input({ apiKey: "sk_1", route: "GET /a" }),
      input({ apiKey: "sk_1", route: "GET /a/" }),
      input({ apiKey: "/a\nsk_1" }),
      input({ apiKey: "sk_2", route: "GET /a" }),
      input({ apiKey: "sk_1" }),
      input({ tenant: "acme", key: "k" }),
      input({ tenant: "acme" }),
      input({ tenant: "acme", key: "k", route: "GET /a" }),
      input({ tenant: "acmek" }),
    ].map(hotKeyOf);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe("HotChecks", () => {
  it("serves an entry only while its tenant is unchanged and before its key expires", () => {
    const hot = new HotChecks(10);
    const marks = new TenantMarks();
    hot.remember("a", entry(marks.of("acme")));
    hot.remember("other", entry(marks.of("globex")));
    expect(hot.get("a")).toBeDefined();
    marks.retire(["acme"]);
    expect(hot.get("a")).toBeUndefined();
    expect(hot.get("other")).toBeDefined();
    expect(hot.size).toBe(1);
    hot.remember("b", entry(CURRENT, 1_000));
    expect(hot.get("b", () => 999)).toBeDefined();
    expect(hot.get("b", () => 1_000)).toBeUndefined();
  });

  it("admits a check from its second sighting, with a bounded memory of first ones", () => {
    const hot = new HotChecks(10);
    expect(hot.admits("a")).toBe(false);
    expect(hot.admits("a")).toBe(true);
    for (let i = 0; i < 1_000; i++) expect(hot.admits(`one-off-${i}`)).toBe(false);
    hot.clear();
    expect(hot.admits("a")).toBe(false);
  });

  it("stays within its capacity and keeps what is read through a flood of one-off checks", () => {
    const hot = new HotChecks(50);
    hot.remember("identical", entry());
    for (let i = 0; i < 5_000; i++) {
      expect(hot.get("identical")).toBeDefined();
      hot.remember(`route-id-${i}`, entry());
      expect(hot.size).toBeLessThanOrEqual(50);
    }
    hot.clear();
    expect(hot.size).toBe(0);
  });

  /** Checks until `consults` says yes again, sending `key` to every one that consults. */
  function consultsPerCheck(hot: HotChecks, key: (i: number) => string, checks: number): number {
    let consulted = 0;
    for (let i = 0; i < checks; i++) {
      if (!hot.consults()) continue;
      consulted++;
      const hotKey = key(i);
      if (hot.get(hotKey) === undefined && hot.admits(hotKey)) hot.remember(hotKey, entry());
    }
    return consulted / checks;
  }

  it("is consulted by one check in eight while checks rarely repeat, by all again once they do", () => {
    const hot = new HotChecks(10_000);
    // every check a new one: after a window of misses, most checks skip the cache
    expect(consultsPerCheck(hot, (i) => `one-off-${i}`, 4_096)).toBe(1);
    expect(hot.skippingLookups).toBe(true);
    expect(consultsPerCheck(hot, (i) => `again-${i}`, 80_000)).toBeCloseTo(1 / 8, 2);
    // the same check over and over: the sampled lookups hit, and the next window turns it on
    consultsPerCheck(hot, () => "identical", 8 * 4_096 + 8);
    expect(hot.skippingLookups).toBe(false);
    expect(consultsPerCheck(hot, () => "identical", 10_000)).toBe(1);
  });

  it("stays on while most lookups hit, and starts on after a new version", () => {
    const hot = new HotChecks(10_000);
    expect(consultsPerCheck(hot, (i) => (i % 4 !== 0 ? "identical" : `one-off-${i}`), 3 * 4_096)).toBe(1);
    consultsPerCheck(hot, (i) => `one-off-b-${i}`, 4_096);
    expect(hot.skippingLookups).toBe(true);
    hot.clear();
    expect(hot.skippingLookups).toBe(false);
    expect(hot.consults()).toBe(true);
  });
});
