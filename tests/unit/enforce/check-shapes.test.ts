import { describe, expect, it } from "vitest";
import { buildShape, CheckShapes, shapeKeyOf, subjectParts } from "@/lib/enforce/check-shapes";
import { resolvedOf } from "@/lib/enforce/resolve";
import { prepareCheck } from "@/lib/limiter/evaluate-many";
import { compiledLimit } from "./fixtures";
import { shapeLimits, shapeSnapshot, shapeTarget } from "./shape-fixture";

const snapshot = shapeSnapshot("T1");
const target = shapeTarget(snapshot);
const shape = buildShape(target, snapshot, true, 7);

/** What the check path sent before shapes: everything resolved for this very subject. */
function direct(subject: string | null) {
  const resolved = resolvedOf(target, snapshot, subject);
  return prepareCheck({ limits: resolved.matched.specs, request: { cost: 1, dryRun: false } });
}

describe("check shapes", () => {
  it("give every subject the keys and specs of a check resolved for that subject alone", () => {
    for (const subject of ["1.2.3.4", "user-42", "a b{c}:*", "é\u00e9", "s.x", "x".repeat(256)]) {
      const parts = subjectParts(shape, subject);
      const expected = direct(subject);
      expect(parts.keys).toEqual(expected.keys);
      expect(parts.specs).toEqual(expected.check.limits);
      expect(shape.rules).toEqual(expected.rules);
    }
    const none = buildShape(target, snapshot, false, 7);
    expect(subjectParts(none, null).keys).toEqual(direct(null).keys);
  });

  it("share the cached parts between two subjects and count per subject only what counts per subject", () => {
    const a = subjectParts(shape, "alice");
    const b = subjectParts(shape, "bob");
    const subjectSlots = [2, 3];
    expect(shape.subjectSlots).toEqual(subjectSlots);
    for (let i = 0; i < shape.keys.length; i++) {
      if (subjectSlots.includes(i)) expect(a.keys[i]).not.toBe(b.keys[i]);
      else expect(a.keys[i]).toBe(b.keys[i]);
    }
    // the tenant's and key's counters, the rules and the answer's text are one object for both
    expect(a.specs[0]).toBe(b.specs[0]);
    expect(a.specs[1]).toBe(b.specs[1]);
    expect(a.signature).not.toBe(b.signature);
    expect(a.signature).toBe("T1\nK1\nGET /items/:id\nalice");
  });

  it("leave the subject out of the signature when no limit counts per subject", () => {
    const limits = shapeLimits().filter((l) => l.by !== "subject");
    const plain = shapeSnapshot("T1", limits);
    const noSubjects = buildShape(shapeTarget(plain), plain, true, 7);
    const parts = subjectParts(noSubjects, "alice");
    expect(parts.keys).toBe(noSubjects.keys);
    expect(parts.signature).toBe("T1\nK1\nGET /items/:id\n");
  });

  it("key a target by tenant, key and resolved patterns, never by the raw route or subject", () => {
    const other = { ...target, routes: { global: null, tenant: null }, route: null };
    const keys = [shapeKeyOf(target, true), shapeKeyOf(target, false), shapeKeyOf(other, true)];
    expect(new Set(keys).size).toBe(3);
    expect(shapeKeyOf({ ...target }, true)).toBe(keys[0]);
  });

  it("have no signature with a shadow limit, and refuse rules the limiter cannot count", () => {
    const shadow = shapeSnapshot("T1", [compiledLimit("s", "subject", { mode: "shadow" })]);
    expect(buildShape(shapeTarget(shadow), shadow, true, 1).signature).toBeNull();
    const huge = shapeSnapshot("T1", [
      compiledLimit("k", "key", { limit: Number.MAX_SAFE_INTEGER, windowMs: 86_400_000 * 365 }),
    ]);
    expect(() => buildShape(shapeTarget(huge), huge, true, 1)).toThrow(RangeError);
  });

  it("stay within their entries and bytes, the oldest leaving first", () => {
    const byCount = new CheckShapes(2);
    for (const key of ["a", "b", "c"]) byCount.remember(key, shape);
    expect(byCount.size).toBe(2);
    expect(byCount.get("a")).toBeUndefined();
    expect(byCount.get("c")).toBe(shape);
    const byBytes = new CheckShapes(100, shape.bytes * 3);
    for (let i = 0; i < 10; i++) byBytes.remember(`k${i}`, shape);
    expect(byBytes.size).toBe(3);
    expect(byBytes.bytes).toBe(shape.bytes * 3);
    byBytes.remember("k9", shape);
    expect(byBytes.size).toBe(3);
    byBytes.clear();
    expect([byBytes.size, byBytes.bytes]).toEqual([0, 0]);
  });
});
