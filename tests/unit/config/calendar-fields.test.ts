// Calendar quotas in the document: algorithm calendar with period and timeZone, the
// tenant's timeZone, what compiles into the snapshot, and each refusal naming its field.

import { describe, expect, it } from "vitest";
import { validateDocument } from "@/lib/control/config/document";
import { compileSnapshot, idMapFromNames } from "@/lib/control/config/compile";

type Doc = Record<string, unknown>;

function documentWith(limit: Doc, tenant: Doc = {}, planLimits: Doc[] = []): Doc {
  return {
    plans: [{ name: "p", limits: planLimits }],
    tenants: [{ slug: "acme", plan: "p", ...tenant, limits: [{ name: "q", ...limit }] }],
  };
}

const errorsOf = (document: Doc) => {
  const result = validateDocument(document);
  return result.ok ? [] : result.errors;
};

function compiledRule(document: Doc) {
  const result = validateDocument(document);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  const snapshot = compileSnapshot(result.document, idMapFromNames(result.document), 1);
  return snapshot.tenants.acme?.limits.unrouted.find((l) => l.name === "q")?.rule;
}

const quota = { by: "tenant", algorithm: "calendar", limit: 10_000, period: "month" };

describe("calendar quotas in the document", () => {
  it("compile with the tenant's time zone, the limit's own winning, UTC by default", () => {
    expect(compiledRule(documentWith(quota))).toMatchObject({
      algorithm: "calendar",
      limit: 10_000,
      windowMs: 31 * 86_400_000,
      calendar: { period: "month", timeZone: "UTC" },
    });
    expect(compiledRule(documentWith(quota, { timeZone: "Europe/Berlin" }))?.calendar).toEqual({
      period: "month",
      timeZone: "Europe/Berlin",
    });
    expect(
      compiledRule(documentWith({ ...quota, timeZone: "America/New_York" }, { timeZone: "Europe/Berlin" }))
        ?.calendar,
    ).toEqual({ period: "month", timeZone: "America/New_York" });
  });

  it("a plan's calendar limit takes each tenant's own zone", () => {
    const document = {
      plans: [{ name: "p", limits: [{ name: "q", ...quota, period: "week" }] }],
      tenants: [{ slug: "acme", plan: "p", timeZone: "Asia/Tokyo", limits: [] }],
    };
    expect(compiledRule(document)?.calendar).toEqual({ period: "week", timeZone: "Asia/Tokyo" });
  });

  it("an override turning a plan's fixed window into a calendar quota leaves the inherited window behind", () => {
    const plan = [{ name: "q", by: "tenant", algorithm: "fixed_window", limit: 5, window: "1d" }];
    const rule = compiledRule(documentWith({ algorithm: "calendar", period: "day" }, {}, plan));
    expect(rule).toMatchObject({
      algorithm: "calendar",
      limit: 5,
      calendar: { period: "day", timeZone: "UTC" },
    });
  });

  it("requires a period and refuses an unknown one, naming the field", () => {
    const { period: _period, ...noPeriod } = quota;
    expect(errorsOf(documentWith(noPeriod))).toEqual([
      {
        path: "tenants[0].limits[0].period",
        message: 'required: no plan or route limit named "q" to inherit it from',
      },
    ]);
    expect(errorsOf(documentWith({ ...quota, period: "fortnight" }))).toEqual([
      { path: "tenants[0].limits[0].period", message: "must be one of day, week, month" },
    ]);
  });

  it("refuses a time zone that is not an IANA name, on the limit and on the tenant", () => {
    for (const timeZone of ["Mars/Olympus", "+01:00", "CET ", 5]) {
      const onLimit = errorsOf(documentWith({ ...quota, timeZone }));
      expect(onLimit).toHaveLength(1);
      expect(onLimit[0]).toMatchObject({ path: "tenants[0].limits[0].timeZone" });
      expect(onLimit[0]?.message).toContain("IANA time zone");
      const onTenant = errorsOf(documentWith(quota, { timeZone }));
      expect(onTenant).toHaveLength(1);
      expect(onTenant[0]).toMatchObject({ path: "tenants[0].timeZone" });
    }
  });

  it("refuses a window, a burst, delay and local on a calendar quota", () => {
    expect(errorsOf(documentWith({ ...quota, window: "30d" }))).toEqual([
      {
        path: "tenants[0].limits[0].window",
        message: "a calendar limit counts its period (day, week or month), not a window; remove window",
      },
    ]);
    expect(errorsOf(documentWith({ ...quota, burst: 5 }))).toEqual([
      { path: "tenants[0].limits[0].burst", message: "a calendar limit has no burst; remove burst" },
    ]);
    expect(errorsOf(documentWith({ ...quota, action: "delay" }))[0]).toMatchObject({
      path: "tenants[0].limits[0].action",
    });
    expect(errorsOf(documentWith({ ...quota, consistency: "local" }))[0]).toMatchObject({
      path: "tenants[0].limits[0].consistency",
    });
  });

  it("refuses period and timeZone on other algorithms", () => {
    const fixed = { by: "tenant", algorithm: "fixed_window", limit: 5, window: "1d" };
    expect(errorsOf(documentWith({ ...fixed, period: "day" }))).toEqual([
      {
        path: "tenants[0].limits[0].period",
        message: "period applies only with algorithm calendar, and this limit's algorithm is fixed_window",
      },
    ]);
    expect(errorsOf(documentWith({ ...fixed, timeZone: "UTC" }))[0]).toMatchObject({
      path: "tenants[0].limits[0].timeZone",
    });
  });
});
