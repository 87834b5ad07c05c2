// A plan's service limit in the document: what is accepted, every refusal naming its field,
// and the compiled tenant's `service` (burst filled in; null without one).

import { describe, expect, it } from "vitest";
import { validateDocument, type ConfigDocument } from "@/lib/control/config/document";
import { compileSnapshot, idMapFromNames } from "@/lib/control/config/compile";

function validate(service: unknown): ReturnType<typeof validateDocument> {
  return validateDocument({ plans: [{ name: "p", limits: [], service }] });
}

function errorsOf(service: unknown): Array<{ path: string; message: string }> {
  const result = validate(service);
  return result.ok ? [] : result.errors;
}

describe("plans[].service in the document", () => {
  it("accepts a rate with and without a burst, and a plan without any", () => {
    for (const service of [
      { checksPerSecond: 5000, burst: 10_000 },
      { checksPerSecond: 1000 },
      { checksPerSecond: 1, burst: 1000 },
      { checksPerSecond: 10_000_000, burst: 10_000_000 },
    ]) {
      const result = validate(service);
      expect(result.ok && result.document.plans?.[0]?.service).toEqual(service);
    }
    const without = validateDocument({ plans: [{ name: "p", limits: [] }] });
    expect(without.ok && without.document.plans?.[0]).toEqual({ name: "p", limits: [] });
  });

  it("refuses rates out of bounds or not whole, naming plans[0].service.checksPerSecond", () => {
    for (const checksPerSecond of [0, -5, 1.5, 10_000_001]) {
      expect(errorsOf({ checksPerSecond, burst: 2000 })).toEqual([
        {
          path: "plans[0].service.checksPerSecond",
          message: "must be a whole number from 1 to 10,000,000",
        },
      ]);
    }
    expect(errorsOf({ checksPerSecond: "1000", burst: 2000 })).toEqual([
      { path: "plans[0].service.checksPerSecond", message: 'must be a number, not text "1000"' },
    ]);
    expect(errorsOf({ burst: 2000 })).toEqual([
      { path: "plans[0].service.checksPerSecond", message: "required" },
    ]);
  });

  it("refuses a burst below a full batch (1,000) or above 10,000,000, naming plans[0].service.burst", () => {
    for (const burst of [1, 999, 10_000_001, 1000.5]) {
      expect(errorsOf({ checksPerSecond: 5000, burst })).toEqual([
        {
          path: "plans[0].service.burst",
          message: "must be a whole number from 1,000 to 10,000,000 (a full batch of 1,000 checks must fit)",
        },
      ]);
    }
  });

  it("refuses a left-out burst when the rate it defaults to is below 1,000", () => {
    expect(errorsOf({ checksPerSecond: 999 })).toEqual([
      {
        path: "plans[0].service.burst",
        message:
          "required when checksPerSecond is below 1,000 (it defaults to checksPerSecond, 999, and a full batch of 1,000 checks must fit)",
      },
    ]);
  });

  it("refuses unknown fields and a service that is not a mapping", () => {
    expect(errorsOf({ checksPerSecond: 5000, rate: 1 })).toEqual([
      { path: "plans[0].service.rate", message: "unknown field; the fields here are checksPerSecond, burst" },
    ]);
    expect(errorsOf(5000)).toEqual([
      { path: "plans[0].service", message: "must be a mapping of fields, not 5000" },
    ]);
  });
});

describe("the compiled tenant's service", () => {
  const document: ConfigDocument = {
    plans: [
      { name: "small", limits: [], service: { checksPerSecond: 1000, burst: 2000 } },
      { name: "rate-only", limits: [], service: { checksPerSecond: 5000 } },
      { name: "open", limits: [] },
    ],
    routes: [],
    tenants: ["small", "rate-only", "open"].map((plan) => ({
      slug: `t-${plan}`,
      plan,
      status: "active" as const,
      limits: [],
      routes: [],
      keys: [],
    })),
  };
  const snapshot = compileSnapshot(document, idMapFromNames(document), 1);

  it("is the plan's, with the burst filled in, and null without one", () => {
    expect(snapshot.tenants["t-small"]?.service).toEqual({ checksPerSecond: 1000, burst: 2000 });
    expect(snapshot.tenants["t-rate-only"]?.service).toEqual({ checksPerSecond: 5000, burst: 5000 });
    expect(snapshot.tenants["t-open"]?.service).toBeNull();
  });
});
