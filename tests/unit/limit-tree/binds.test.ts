// What binds a chain (lib/control/limit-tree/binds.ts): the smallest share left, not the
// fewest units; equal shares to the one that runs out first at its counter's pace; then the
// first on the chain. Shadow and disabled limits never bind; a blocked one does.
import { describe, expect, it } from "vitest";
import { bindingOf, msToExhaustion, shareLeft, type ChainLimit } from "@/lib/control/limit-tree/binds";
import type { LimitReading } from "@/lib/control/limit-tree/types";

function reading(
  name: string,
  remaining: number,
  capacity: number,
  more: Partial<LimitReading> = {},
): LimitReading {
  return {
    name,
    by: "tenant",
    route: null,
    algorithm: "fixed_window",
    mode: "enforce",
    limit: capacity,
    windowMs: 60_000,
    burst: null,
    used: capacity - remaining,
    capacity,
    remaining,
    utilization: capacity > 0 ? 1 - remaining / capacity : 1,
    override: null,
    from: "tenant",
    provenance: [],
    ...more,
  };
}

const at = (level: ChainLimit["level"], r: LimitReading, ratePerMs = 0): ChainLimit => ({
  level,
  reading: r,
  ratePerMs,
});

describe("what binds", () => {
  it("compares shares left, not units across windows: 300 of 10,000 a minute binds before 2 of 10 a second", () => {
    const tenant = reading("writes", 300, 10_000);
    const key = reading("key-rps", 2, 10, { by: "key", windowMs: 1_000 });
    expect(bindingOf([at("tenant", tenant), at("key", key)])).toEqual({
      level: "tenant",
      limit: "writes",
      route: null,
      remaining: 300,
      share: 0.03,
    });
  });

  it("puts route limits on the chain: spent route limits bind a key whose tenant limit has units left", () => {
    // the key ingest of the report: tenant writes 300 left, two route limits at 0
    const chain = [
      at("plan", reading("plan-rpm", 9_000, 10_000)),
      at("tenant", reading("writes", 300, 10_000)),
      at("key", reading("key-rps", 250, 300, { by: "key", windowMs: 1_000 })),
      at("route", reading("ingest-rps", 0, 50, { route: "POST /v1/ingest" }), 0.05),
      at("route", reading("bulk-rpm", 0, 100, { route: "POST /v1/bulk", by: "key" }), 0.001),
    ];
    expect(bindingOf(chain)).toEqual({
      level: "route",
      limit: "ingest-rps",
      route: "POST /v1/ingest",
      remaining: 0,
      share: 0,
    });
  });

  it("breaks equal shares by the time to run out at each counter's pace", () => {
    const slow = at("tenant", reading("tenant-cap", 50, 100), 0.001); // 50 s left
    const fast = at("key", reading("per-key", 5, 10, { by: "key" }), 0.005); // 1 s left
    expect(bindingOf([slow, fast])?.limit).toBe("per-key");
    expect(bindingOf([fast, slow])?.limit).toBe("per-key");
    // no traffic at all: the first on the chain
    const idleA = at("plan", reading("a", 10, 10));
    const idleB = at("tenant", reading("b", 100, 100));
    expect(bindingOf([idleA, idleB])?.limit).toBe("a");
    // both spent: 0 ms each, the first on the chain
    expect(bindingOf([at("tenant", reading("x", 0, 10), 1), at("route", reading("y", 0, 5), 9)])?.limit).toBe(
      "x",
    );
  });

  it("never binds on a shadow or disabled limit; a block (capacity 0) has nothing left and binds", () => {
    const shadow = at("key", reading("shadow", 0, 10, { mode: "shadow" }));
    const disabled = at(
      "tenant",
      reading("off", 0, 10, {
        override: { id: "o1", value: "disabled", endsAt: "2026-12-12T00:00:00.000Z" },
      }),
    );
    const open = at("plan", reading("open", 9, 10));
    expect(bindingOf([shadow, disabled, open])?.limit).toBe("open");
    expect(bindingOf([shadow, disabled])).toBeNull();
    const blocked = at(
      "tenant",
      reading("few", 0, 0, {
        limit: 0,
        override: { id: "o2", value: 0, endsAt: "2026-12-12T00:00:00.000Z" },
      }),
    );
    expect(bindingOf([open, blocked])).toMatchObject({ limit: "few", share: 0 });
  });

  it("measures a share against the capacity (a bucket's burst) and time left at the rate", () => {
    expect(shareLeft(reading("b", 50, 200, { algorithm: "token_bucket", limit: 100, burst: 200 }))).toBe(
      0.25,
    );
    expect(shareLeft(reading("blocked", 0, 0))).toBe(0);
    expect(msToExhaustion(reading("r", 30, 100), 0.01)).toBe(3_000);
    expect(msToExhaustion(reading("r", 30, 100), 0)).toBe(Infinity);
    expect(msToExhaustion(reading("r", 0, 100), 0)).toBe(0);
  });
});
