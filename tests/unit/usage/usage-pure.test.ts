import { describe, expect, it } from "vitest";
import { UsageBatch } from "@/lib/usage/record/batch";
import { pairField, parsePairField, parseSecondField, secondField, secondsKey } from "@/lib/usage/keys";
import { pairEntries, pairTexts } from "@/lib/usage/pair-series";
import { breakdown, toSeries } from "@/lib/usage/read/query";
import { minuteRows } from "@/lib/usage/store/redis-read";
import { CredentialUse, parseUses } from "@/lib/usage/record/credential-use";
import { UNMATCHED_ROUTE_MARK } from "@/lib/shared/usage-route";
import type { UsageRow } from "@/lib/usage/read/rows";

const ZERO = {
  allowed: 0,
  rejected: 0,
  shadowRejected: 0,
  degraded: 0,
  leasesAcquired: 0,
  leasesReleased: 0,
  leasesExpired: 0,
};

describe("usage key layout", () => {
  it("round-trips fields, routes with bars included", () => {
    const field = secondField(59, "key1", "GET /a|b/:id", "shadow_rejected");
    expect(field).toBe("59|key1|GET /a|b/:id|s");
    expect(parseSecondField(field)).toEqual({
      second: 59,
      keyId: "key1",
      route: "GET /a|b/:id",
      outcome: "shadow_rejected",
    });
    expect(parseSecondField("x|y")).toBeNull();
    const pair = pairField("", "GET /a|b/:id", "rejected");
    expect(pair).toBe("|GET /a|b/:id|r");
    expect(parsePairField(pair)).toEqual({ keyId: "", route: "GET /a|b/:id", outcome: "rejected" });
    expect(parsePairField("k|r|z")).toBeNull();
    expect(parsePairField("kr")).toBeNull();
  });

  it("reads a pair's entries, skipping what Sluice does not write", () => {
    expect([...pairEntries("5:3,59:1,5:2")]).toEqual([
      [5, 3],
      [59, 1],
      [5, 2],
    ]);
    expect([...pairEntries("x,60:1,-1:2,3:0,3:1.5,:4,7:,8:9")]).toEqual([[8, 9]]);
    expect([...pairEntries("")]).toEqual([]);
  });

  it("puts every key of a tenant under one hash tag, braces in ids encoded", () => {
    expect(secondsKey("p:", "t{1}", 42)).toBe("p:{u:t%7B1%7D}:s:42");
  });
});

describe("in-process batch", () => {
  it("aggregates per second, key, route and outcome, and bounds subjects", () => {
    const batch = new UsageBatch({ maxFields: 100, maxSubjects: 2 });
    const t = 120_000 + 5_300; // minute 2, second 5
    for (const subject of ["a", "b", "c", "a"])
      batch.add({ tenantId: "t", keyId: "k", route: "r", outcome: "rejected", subject }, t);
    batch.add({ tenantId: "t", keyId: null, route: null, outcome: "allowed", subject: null }, t);
    // the same pair two seconds later: one field, its seconds listed in order
    batch.add({ tenantId: "t", keyId: null, route: null, outcome: "allowed", subject: null }, t + 2_000);
    batch.add({ tenantId: "t", keyId: null, route: null, outcome: "allowed", subject: null }, t + 2_500);
    const tenant = batch.tenants.get("t");
    expect(Object.fromEntries(pairTexts(tenant?.pairs.get(2) ?? new Map()))).toEqual({
      "k|r|r": "5:4",
      "||a": "5:1,7:2",
    });
    expect(Object.fromEntries(tenant?.offenders.get(2) ?? [])).toEqual({ "k:k": 4, "s:a": 2, "s:b": 1 });
    expect(batch.events).toBe(7);
  });

  it("drops new counters past maxFields and counts them", () => {
    const batch = new UsageBatch({ maxFields: 1, maxSubjects: 1 });
    batch.add({ tenantId: "t", keyId: "a", route: null, outcome: "allowed", subject: null }, 0);
    batch.add({ tenantId: "t", keyId: "b", route: null, outcome: "allowed", subject: null }, 0);
    batch.add({ tenantId: "t", keyId: "a", route: null, outcome: "allowed", subject: null }, 0);
    expect([batch.events, batch.dropped]).toEqual([2, 1]);
    // a known pair's next second is a new counter too
    batch.add({ tenantId: "t", keyId: "a", route: null, outcome: "allowed", subject: null }, 1_000);
    expect([batch.events, batch.dropped]).toEqual([2, 2]);
  });
});

describe("shaping", () => {
  const rows: UsageRow[] = [
    { t: 0, keyId: "k1", route: "r1", ...ZERO, allowed: 5 },
    { t: 1_000, keyId: "k2", route: "r1", ...ZERO, rejected: 2 },
    { t: 61_000, keyId: "", route: "", ...ZERO, degraded: 1 },
  ];

  it("buckets rows into zero-filled steps", () => {
    expect(toSeries(rows, 0, 120_000, 60_000)).toEqual([
      { t: 0, ...ZERO, allowed: 5, rejected: 2 },
      { t: 60_000, ...ZERO, degraded: 1 },
    ]);
  });

  it("breaks down by key with names, the rest grouped", () => {
    const names = new Map([["k1", "backend"]]);
    expect(
      breakdown(rows, "key", names, 1).map((r) => [r.name, r.allowed + r.rejected + r.degraded]),
    ).toEqual([
      ["backend", 5],
      ["(other)", 3],
    ]);
    expect(breakdown(rows, "route", names).map((r) => r.name)).toEqual(["r1", "(no route)"]);
  });

  it("names a route that was sent but matched nothing apart from no route", () => {
    const sent = [...rows, { t: 2_000, keyId: "k1", route: UNMATCHED_ROUTE_MARK, ...ZERO, allowed: 9 }];
    expect(breakdown(sent, "route", new Map()).map((r) => r.name)).toEqual([
      "(unmatched route)",
      "r1",
      "(no route)",
    ]);
  });

  it("sums a minute into rows per key and route, from both layouts", () => {
    const hash = {
      pairs: { "k|r|a": "1:2,2:1", "k|r|r": "2:1" },
      seconds: { "2|k|r|a": "2", "3|k|q|a": "4" },
    };
    expect(minuteRows("t", hash)).toEqual([
      { tenantId: "t", keyId: "k", route: "r", ...ZERO, allowed: 5, rejected: 1 },
      { tenantId: "t", keyId: "k", route: "q", ...ZERO, allowed: 4 },
    ]);
  });
});

describe("credential use", () => {
  it("notes a credential at most once a minute and drains what it noted", () => {
    const uses = new CredentialUse();
    uses.mark("key", "k1", 1_000);
    uses.mark("key", "k1", 30_000);
    uses.mark("token", "t1", 2_000);
    expect(uses.drain()).toEqual({ "k:k1": "1000", "t:t1": "2000" });
    expect(uses.empty).toBe(true);
    uses.mark("key", "k1", 59_999);
    expect(uses.empty).toBe(true);
    uses.mark("key", "k1", 61_000);
    expect(parseUses(uses.drain())).toEqual({ keys: new Map([["k1", 61_000]]), tokens: new Map() });
  });
});
