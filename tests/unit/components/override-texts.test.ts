// What the override form and the Limits tab say about a temporary override: each limit named
// with its configured values, and the rule in force under an override (its burst scaled).

import { describe, expect, it } from "vitest";
import { choiceLabel } from "@/components/overrides/choice-label";
import { overriddenText } from "@/components/limits/effective-rule-cell";
import type { LiveCounter } from "@/lib/control/counters/live-utilization";

const counter = (value: number | "disabled", inForce: LiveCounter["inForce"]): LiveCounter => ({
  name: "api",
  route: null,
  by: "key",
  windowMs: 1_000,
  owner: "tenant",
  capacity: inForce.burst ?? inForce.limit,
  used: 0,
  resetMs: 0,
  override: { id: "ov1", value, endsAt: "2026-11-29T18:00:00.000Z" },
  inForce,
});

describe("the override form's limit choices", () => {
  it("name the configured rate and burst", () => {
    const label = choiceLabel({ name: "api", rules: [{ limit: 10, windowMs: 1_000, burst: 20 }] });
    expect(label).toBe("api: 10 / 1s, burst 20");
  });

  it("list a name's other values on some keys, at most three", () => {
    const rules = [1, 2, 3, 4, 5].map((limit) => ({ limit, windowMs: 60_000, burst: null }));
    expect(choiceLabel({ name: "rpm", rules })).toBe("rpm: 1 / 1m or 2 / 1m or 3 / 1m and 2 more");
  });
});

describe("the effective rule under an override", () => {
  const fields = {
    by: "key" as const,
    algorithm: "token_bucket" as const,
    limit: 10,
    windowMs: 1_000,
    burst: 20,
  };

  it("shows the value in force and the burst scaled with it", () => {
    expect(overriddenText(fields, counter(50, { limit: 50, burst: 100 }))).toBe(
      "50 / 1s · burst 100 · token_bucket · per key",
    );
  });

  it("says a block and a disabled limit in words", () => {
    expect(overriddenText(fields, counter(0, { limit: 0, burst: null }))).toBe("0: every check denied");
    expect(overriddenText(fields, counter("disabled", { limit: 10, burst: 20 }))).toBe("disabled");
  });
});
