import { describe, expect, it } from "vitest";
import { applyOverrides, effectiveLimits, overridesAt } from "@/lib/control/config/compile";
import type { PublishedOverride } from "@/lib/check/published/published";
import { buildShape } from "@/lib/check/check-shapes";
import { checkParts } from "@/lib/check/check-parts";
import { buildIndex } from "@/lib/check/config-state";
import { renderBlock } from "@/lib/check/override-shape";
import { subjectShape } from "@/lib/check/override-variants";
import { keyRecord, shapeSnapshot, shapeTarget } from "./shape-fixture";

// Temporary overrides applied to a snapshot at a moment (apply-overrides.ts), and what the
// check path makes of them: a changed limit keeps its id (its counters), a block never
// reaches the limiter, a subject's override only meets that subject's checks.

const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);
const base = shapeSnapshot("T1");

const override = (fields: Partial<PublishedOverride>): PublishedOverride => ({
  id: "o1",
  tenant: "acme",
  key: null,
  subject: null,
  limit: "per-tenant",
  value: 5_000,
  startsAt: T0,
  endsAt: T0 + 3_600_000,
  ...fields,
});

const names = (snapshot: typeof base, key: string | null) =>
  effectiveLimits(snapshot, "acme", key, null).map((l) => `${l.name}=${l.rule.limit}`);

describe("overridesAt", () => {
  it("is in force from its start (inclusive) to its end (exclusive), and names the next change", () => {
    const list = [override({}), override({ id: "o2", startsAt: T0 + 10_000, endsAt: T0 + 20_000 })];
    expect(overridesAt(list, T0 - 1)).toEqual({ active: [], nextChangeAt: T0 });
    expect(overridesAt(list, T0).active.map((o) => o.id)).toEqual(["o1"]);
    expect(overridesAt(list, T0).nextChangeAt).toBe(T0 + 10_000);
    expect(overridesAt(list, T0 + 19_999).active.map((o) => o.id)).toEqual(["o1", "o2"]);
    expect(overridesAt(list, T0 + 20_000)).toEqual({ active: [list[0]], nextChangeAt: T0 + 3_600_000 });
    expect(overridesAt(list, T0 + 3_600_000)).toEqual({ active: [], nextChangeAt: null });
  });
});

describe("applyOverrides", () => {
  it("changes the limit for every check of the tenant, keeping its id, and leaves the input alone", () => {
    const before = JSON.stringify(base);
    const applied = applyOverrides(base, [override({})]);
    expect(names(applied, "backend")).toContain("per-tenant=5000");
    const limit = effectiveLimits(applied, "acme", "backend", null).find((l) => l.name === "per-tenant");
    const original = effectiveLimits(base, "acme", "backend", null).find((l) => l.name === "per-tenant");
    expect(limit?.id).toBe(original?.id);
    expect(limit?.override).toEqual({
      id: "o1",
      endsAt: new Date(T0 + 3_600_000).toISOString(),
      blocked: false,
    });
    expect(JSON.stringify(base)).toBe(before);
    expect(applyOverrides(base, [])).toBe(base);
  });

  it("a key's override meets that key only; disabled drops the limit", () => {
    const disabled = applyOverrides(base, [override({ key: "backend", limit: "per-key", value: null })]);
    expect(names(disabled, "backend")).not.toContain("per-key=1000");
    expect(names(disabled, "mobile")).toContain("per-key=1000");
  });

  it("a burst scales with the limit", () => {
    const snapshot = shapeSnapshot("T1");
    const tenantLimit = snapshot.tenants.acme?.keyDefault.unrouted[0];
    if (tenantLimit) tenantLimit.rule = { ...tenantLimit.rule, burst: 100 };
    const applied = applyOverrides(snapshot, [override({ value: 3_000 })]);
    expect(effectiveLimits(applied, "acme", "backend", null)[0]?.rule.burst).toBe(300);
  });
});

describe("on the check path", () => {
  it("a limit of 0 blocks without the limiter, retrying when the override ends", () => {
    const applied = applyOverrides(base, [override({ limit: "per-subject", value: 0 })]);
    const shape = buildShape(shapeTarget(applied), applied, true, 3);
    expect(shape.keys).toEqual([]);
    const block = shape.overrides?.block;
    expect(block).toBeTruthy();
    if (!block) return;
    const answer = renderBlock(block, "backend", T0 + 1_000);
    const body = JSON.parse(answer.json) as Record<string, unknown>;
    expect(body).toMatchObject({ allowed: false, reason: "rate_limited", limit: 0, remaining: 0 });
    expect(body.retryAfterMs).toBe(3_599_000);
    expect(body.limits).toEqual([
      expect.objectContaining({
        name: "per-subject",
        limit: 0,
        override: { id: "o1", endsAt: new Date(T0 + 3_600_000).toISOString() },
      }),
    ]);
    expect(answer.outcome).toBe("rejected");
  });

  it("a subject's override gives that subject its own shape, keeping the counter keys", () => {
    const applied = applyOverrides(base, [
      override({ subject: "203.0.113.9", limit: "per-subject", value: 50 }),
    ]);
    const target = shapeTarget(applied, keyRecord("backend", "K1"));
    const shape = buildShape(target, applied, true, 3);
    expect(shape.overrides?.subjects?.size).toBe(1);
    const plain = subjectShape(shape, shape.overrides!, target, "198.51.100.1", applied, 3);
    expect(plain).toBe(shape);
    const own = subjectShape(shape, shape.overrides!, target, "203.0.113.9", applied, 3);
    expect(own).not.toBe(shape);
    expect(subjectShape(shape, shape.overrides!, target, "203.0.113.9", applied, 3)).toBe(own);
    const a = checkParts(shape, keyRecord("backend", "K1"), "203.0.113.9");
    const b = checkParts(own, keyRecord("backend", "K1"), "203.0.113.9");
    expect(b.keys).toEqual(a.keys);
    expect(b.specs.map((s) => s.rule.limit)).toContain(50);
    // a shape with no override at all carries nothing
    expect(buildShape(shapeTarget(base), base, true, 3).overrides).toBeNull();
  });

  it("the config index applies what is in force at its time", () => {
    const published = { version: 4, snapshot: base, keys: {}, serviceTokens: {}, overrides: [override({})] };
    expect(buildIndex(published, T0 - 1).nextChangeAt).toBe(T0);
    expect(names(buildIndex(published, T0 - 1).snapshot, null)).not.toContain("per-tenant=5000");
    expect(names(buildIndex(published, T0).snapshot, "backend")).toContain("per-tenant=5000");
    expect(buildIndex(published, T0 + 3_600_000).snapshot).toEqual({ ...base, version: 4 });
  });
});
