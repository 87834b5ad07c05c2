// A document with shape errors still has its names and references checked, on the parts that
// parsed, so one answer holds every error (the schema-and-reference-errors fixture is the
// case as reported); what cannot be read reports nothing on top of its own error.

import { describe, expect, it } from "vitest";

import { validateDocument, type PlanDoc } from "@/lib/control/config/document";

const badWindow = { name: "x", by: "tenant", algorithm: "gcra", limit: 1, window: "0s" };
const windowError = { path: "tenants[0].limits[0].window", message: "must be a duration > 0" };

describe("every error in one answer", () => {
  it("an unknown plan beside a shape error, read against the context's plans", () => {
    const plans: PlanDoc[] = [{ name: "free", limits: [] }];
    const input = { tenants: [{ slug: "acme", plan: "gold", limits: [badWindow] }] };
    expect(validateDocument(input, { plans })).toEqual({
      ok: false,
      errors: [windowError, { path: "tenants[0].plan", message: 'unknown plan "gold"; the plans are free' }],
    });
    const known = { tenants: [{ slug: "acme", plan: "free", limits: [badWindow] }] };
    expect(validateDocument(known, { plans })).toEqual({ ok: false, errors: [windowError] });
  });

  it("keeps the index of entries that cannot be read at all", () => {
    const input = { plans: [{ name: "free" }], tenants: [42, { slug: "b", plan: "gold" }] };
    expect(validateDocument(input)).toMatchObject({
      ok: false,
      errors: [
        { path: "tenants[0]" },
        { path: "tenants[1].plan", message: 'unknown plan "gold"; the plans are free' },
      ],
    });
  });

  it("calls no plan unknown while a plan's name or the plan list itself is unreadable", () => {
    const badName = {
      plans: [{ name: "Free" }],
      tenants: [{ slug: "acme", plan: "free", limits: [badWindow] }],
    };
    const result = validateDocument(badName);
    expect(result.ok ? [] : result.errors.map((e) => e.path)).toEqual(["plans[0].name", windowError.path]);
    const notAList = { plans: "free", tenants: [{ slug: "acme", plan: "free" }] };
    const listResult = validateDocument(notAList);
    expect(listResult.ok ? [] : listResult.errors.map((e) => e.path)).toEqual(["plans"]);
  });
});
