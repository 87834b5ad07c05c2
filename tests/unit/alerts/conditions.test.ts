import { describe, expect, it } from "vitest";
import { degradedCount, rejectionRate, utilization, type SecondRow } from "@/lib/control/alerts/conditions";

// The alert conditions on known per-second rows: exact values, the "for D" at every second,
// filters by key and route, per-key limits.

const NOW = 1_000_000_000_000;
const row = (secondsAgo: number, counts: Partial<SecondRow>): SecondRow => ({
  t: NOW - secondsAgo * 1000,
  keyId: "",
  route: "",
  allowed: 0,
  rejected: 0,
  degraded: 0,
  ...counts,
});
const ALL = { keyId: null, route: null };

describe("rejection rate", () => {
  it("is the rejected share over the last D seconds", () => {
    const rows = [
      row(1, { allowed: 3, rejected: 1 }),
      row(5, { allowed: 0, rejected: 4 }),
      row(20, { rejected: 100 }),
    ];
    expect(rejectionRate(rows, ALL, NOW, 10, 70)).toEqual({ holds: false, value: 62.5, owner: null });
    expect(rejectionRate(rows, ALL, NOW, 10, 60).holds).toBe(true);
    expect(rejectionRate(rows, ALL, NOW, 2, 20)).toMatchObject({ holds: true, value: 25 });
  });
  it("does not hold without traffic, and filters by key and route", () => {
    expect(rejectionRate([], ALL, NOW, 60, 0).holds).toBe(false);
    const rows = [row(1, { keyId: "a", route: "GET /x", rejected: 1 }), row(1, { keyId: "b", allowed: 9 })];
    expect(rejectionRate(rows, { keyId: "a", route: null }, NOW, 5, 50).value).toBe(100);
    expect(rejectionRate(rows, { keyId: null, route: "GET /y" }, NOW, 5, 0).holds).toBe(false);
  });
});

describe("degraded", () => {
  it("counts degraded decisions in the last D seconds only", () => {
    const rows = [row(3, { degraded: 2 }), row(70, { degraded: 5 })];
    expect(degradedCount(rows, ALL, NOW, 60)).toEqual({ holds: true, value: 2, owner: null });
    expect(degradedCount(rows, ALL, NOW, 2).holds).toBe(false);
  });
});

describe("utilization for D", () => {
  const limit = { limit: 10, windowMs: 5_000, perKey: false, keyIds: null, route: null };
  it("holds only when above the threshold at every second of the last D", () => {
    // 9 admitted 4 s ago: in the 5 s window for the seconds 4..0 ago -> 90% during the last 4 s
    const rows = [row(4, { allowed: 9 })];
    expect(utilization(rows, limit, ALL, NOW, 4, 80)).toEqual({ holds: true, value: 90, owner: null });
    // over the last 6 s, two seconds saw nothing in the window: it did not hold all along
    expect(utilization(rows, limit, ALL, NOW, 6, 80)).toMatchObject({ holds: false, value: 0 });
    expect(utilization(rows, limit, ALL, NOW, 4, 90).holds).toBe(false);
  });
  it("sums the trailing window", () => {
    const rows = [row(3, { allowed: 4 }), row(2, { allowed: 4 }), row(1, { allowed: 4 })];
    // seconds 1 ago: window holds all 12 -> 120%; 2 ago: 8 -> 80%; lowest over the last 2 s is 80
    expect(utilization(rows, limit, ALL, NOW, 2, 70)).toMatchObject({ holds: true, value: 80 });
  });
  it("per key: one key above is enough, and it is named", () => {
    const perKey = { ...limit, perKey: true };
    const rows = [row(1, { keyId: "a", allowed: 9 }), row(1, { keyId: "b", allowed: 2 })];
    expect(utilization(rows, perKey, ALL, NOW, 1, 80)).toEqual({ holds: true, value: 90, owner: "a" });
    const tenantWide = utilization(rows, limit, ALL, NOW, 1, 80);
    expect(tenantWide).toMatchObject({ holds: true, value: 110 });
    expect(utilization(rows, { ...perKey, keyIds: ["b"] }, ALL, NOW, 1, 80).holds).toBe(false);
  });
  it("counts only the limit's route", () => {
    const routed = { ...limit, route: "GET /a" };
    const rows = [row(1, { route: "GET /b", allowed: 50 })];
    expect(utilization(rows, routed, ALL, NOW, 1, 1).holds).toBe(false);
  });
});
