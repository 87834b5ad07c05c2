import { describe, expect, it } from "vitest";
import { CheckShapes } from "@/lib/enforce/check-shape-cache";
import { buildShape, checkKeys, checkParts, denySignature, keyJsonOf, shapeKeyOf } from "@/lib/enforce/check-shapes";
import { DecisionTemplate } from "@/lib/enforce/render/decision-template";
import { resolvedOf } from "@/lib/enforce/resolve";
import { prepareCheck } from "@/lib/limiter/evaluate-many";
import { compiledLimit } from "./fixtures";
import { keyRecord, shapeLimits, shapeSnapshot, shapeTarget } from "./shape-fixture";

const snapshot = shapeSnapshot("T1");
const target = shapeTarget(snapshot);
const backend = keyRecord("backend", "K1");
const mobile = keyRecord("mobile", "K2");
const shape = buildShape(target, snapshot, true, 7);

/** What the check path sent before shapes: everything resolved for this very key and subject. */
function direct(key: typeof backend, subject: string | null) {
  const resolved = resolvedOf(shapeTarget(snapshot, key), snapshot, subject);
  return prepareCheck({ limits: resolved.matched.specs, request: { cost: 1, dryRun: false } });
}

describe("check shapes", () => {
  it("give every key and subject the keys and specs of a check resolved for them alone", () => {
    for (const key of [backend, mobile]) {
      for (const subject of [
        "1.2.3.4",
        "user-42",
        "a b{c}:*",
        "é\u00e9",
        "s.x",
        "x".repeat(256),
        "x\ud800",
        "\udc00y",
      ]) {
        const parts = checkParts(shape, key, subject);
        const expected = direct(key, subject);
        expect(parts.keys).toEqual(expected.keys);
        expect(checkKeys(shape, key, subject)).toEqual(expected.keys);
        expect(parts.specs).toEqual(expected.check.limits);
        expect(shape.rules).toEqual(expected.rules);
      }
    }
    const none = buildShape(target, snapshot, false, 7);
    expect(checkParts(none, mobile, null).keys).toEqual(direct(mobile, null).keys);
  });

  it("share the cached parts between two subjects and count per subject only what counts per subject", () => {
    const a = checkParts(shape, backend, "alice");
    const b = checkParts(shape, backend, "bob");
    expect(shape.subjectSlots).toEqual([2, 3]);
    for (let i = 0; i < shape.keys.length; i++) {
      if (shape.subjectSlots.includes(i)) expect(a.keys[i]).not.toBe(b.keys[i]);
      else expect(a.keys[i]).toBe(b.keys[i]);
    }
    // the tenant's and key's counters and the rules are one object for both
    expect(a.specs[0]).toBe(b.specs[0]);
    expect(a.specs[1]).toBe(b.specs[1]);
    expect(denySignature(shape, backend, "alice")).toBe("T1\nK1\nGET /items/:id\nalice");
    expect(denySignature(shape, backend, "bob")).toBe("T1\nK1\nGET /items/:id\nbob");
  });

  it("serve every key of one limit set from one shape, each naming its own key", () => {
    expect(shapeKeyOf(shapeTarget(snapshot, mobile), true)).toBe(shapeKeyOf(target, true));
    expect(denySignature(shape, mobile, "alice")).toBe("T1\nK2\nGET /items/:id\nalice");
    const reply = [
      1,
      5,
      ...[1, 1, 999, 3_000, -1, 0],
      ...[1, 1, 999, 3_000, -1, 0],
      ...[1, 1, 9, 3_000, -1, 0],
    ];
    reply.push(1, 1, 99, 60_000, -1, 0);
    const who = { tenant: "acme", route: "GET /items/:id" };
    const fresh = new DecisionTemplate(shape.resolved.matched.limits, who, 7).render(reply, 0, '"mobile"');
    const mobiles = shape.template.render(reply, 0, keyJsonOf(mobile));
    expect(mobiles).toEqual(fresh);
    expect(mobiles.json).toContain('"tenant":"acme","key":"mobile","route":"GET /items/:id"');
    expect(shape.template.render(reply, 0, keyJsonOf(backend)).json).toContain('"key":"backend"');
    expect(keyJsonOf(null)).toBe("null");
  });

  it("leave the subject out of the signature when no limit counts per subject", () => {
    const limits = shapeLimits().filter((l) => l.by !== "subject");
    const plain = shapeSnapshot("T1", limits);
    const noSubjects = buildShape(shapeTarget(plain), plain, true, 7);
    expect(checkKeys(noSubjects, backend, "alice")).toBe(noSubjects.keys);
    expect(denySignature(noSubjects, backend, "alice")).toBe("T1\nK1\nGET /items/:id\n");
  });

  it("key a target by tenant, limit set and resolved patterns, never by the raw route or subject", () => {
    const other = { ...target, routes: { global: null, tenant: null }, route: null };
    const noKey = { ...target, key: null };
    const keys = [
      shapeKeyOf(target, true),
      shapeKeyOf(target, false),
      shapeKeyOf(other, true),
      shapeKeyOf(noKey, true),
    ];
    expect(new Set(keys).size).toBe(4);
  });

  it("have no signature with a shadow limit, and refuse rules the limiter cannot count", () => {
    const shadow = shapeSnapshot("T1", [compiledLimit("s", "subject", { mode: "shadow" })]);
    expect(denySignature(buildShape(shapeTarget(shadow), shadow, true, 1), backend, "x")).toBeNull();
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
