import { describe, expect, it } from "vitest";
import { buildShape, shapeTagOf } from "@/lib/check/check-shapes";
import { checkKeys, checkParts, denySignature, keyJsonOf } from "@/lib/check/check-parts";
import { ShapeTable } from "@/lib/check/shape-table";
import { DecisionTemplate } from "@/lib/check/render/decision-template";
import { resolvedOf } from "@/lib/check/resolve";
import { prepareCheck } from "@/lib/check/limiter/evaluate-many";
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
        // from a cache entry's keys (the key's counters already in), only the subject's filled
        expect(checkKeys(shape, key, subject, checkKeys(shape, key, null))).toEqual(expected.keys);
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
    expect(shapeTagOf(shapeTarget(snapshot, mobile))).toBe(shapeTagOf(target));
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

  it("find a target's shape by tenant, limit set and resolved patterns, never by the raw route or subject", () => {
    const table = new ShapeTable();
    const other = { ...target, routes: { global: null, tenant: null }, route: null };
    const noKey = { ...target, key: null };
    const place = (t: typeof target, hasSubject: boolean) =>
      [table.slot(t.tenant.slug, t.routes), shapeTagOf(t), hasSubject] as const;
    const places = [place(target, true), place(target, false), place(other, true), place(noKey, true)];
    places.forEach(([slot, tag, hasSubject], i) => {
      expect(table.get(slot, tag, hasSubject)).toBeUndefined();
      table.remember(slot, tag, hasSubject, { ...shape, bytes: i + 1 });
    });
    // four places, four shapes: each found again where it was put, from fresh lookups
    expect(table.size).toBe(4);
    expect(table.get(...place(target, true))?.bytes).toBe(1);
    expect(table.get(...place(noKey, true))?.bytes).toBe(4);
    // another key of the same limit set, and another route spelling with the same patterns
    const sameRoutes = { ...target, key: mobile, routes: { ...target.routes } };
    expect(table.get(...place(sameRoutes, false))?.bytes).toBe(2);
    expect(table.slot("T1", { ...target.routes })).toBe(table.slot("T1", target.routes));
  });

  it("have no signature with a shadow limit, and refuse rules the limiter cannot count", () => {
    const shadow = shapeSnapshot("T1", [compiledLimit("s", "subject", { mode: "shadow" })]);
    expect(denySignature(buildShape(shapeTarget(shadow), shadow, true, 1), backend, "x")).toBeNull();
    const huge = shapeSnapshot("T1", [
      compiledLimit("k", "key", { limit: Number.MAX_SAFE_INTEGER, windowMs: 86_400_000 * 365 }),
    ]);
    expect(() => buildShape(shapeTarget(huge), huge, true, 1)).toThrow(RangeError);
  });

  it("stay within their entries and bytes: past either, every slot is emptied", () => {
    const byCount = new ShapeTable(2);
    const slot = byCount.slot("T1", target.routes);
    for (const tag of ["a", "b"]) byCount.remember(slot, tag, true, shape);
    expect(byCount.size).toBe(2);
    byCount.remember(byCount.slot("T1", { global: null, tenant: null }), "c", true, shape);
    expect(byCount.size).toBe(1);
    expect(byCount.get(slot, "a", true)).toBeUndefined();
    expect(byCount.get(byCount.slot("T1", { global: null, tenant: null }), "c", true)).toBe(shape);
    const byBytes = new ShapeTable(100, shape.bytes * 3);
    const other = byBytes.slot("T2", target.routes);
    for (let i = 0; i < 3; i++) byBytes.remember(other, `k${i}`, false, shape);
    expect([byBytes.size, byBytes.bytes]).toEqual([3, shape.bytes * 3]);
    // the same place again replaces, counted once
    byBytes.remember(other, "k2", false, shape);
    expect(byBytes.size).toBe(3);
    byBytes.remember(other, "k3", false, shape);
    expect([byBytes.size, byBytes.bytes]).toEqual([1, shape.bytes]);
    byBytes.clear();
    expect([byBytes.size, byBytes.bytes]).toEqual([0, 0]);
  });
});
