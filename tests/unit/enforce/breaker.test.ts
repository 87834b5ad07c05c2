import { describe, expect, it } from "vitest";
import { CircuitBreaker, type BreakerState } from "@/lib/check/breaker";

function setup() {
  const state = { now: 0 };
  const changes: BreakerState[] = [];
  const breaker = new CircuitBreaker({
    threshold: 3,
    cooldownMs: 100,
    now: () => state.now,
    onChange: (s) => changes.push(s),
  });
  return { state, breaker, changes };
}

describe("CircuitBreaker", () => {
  it("opens after `threshold` failures in a row, and a success in between resets the count", () => {
    const { breaker, changes } = setup();
    breaker.failure();
    breaker.failure();
    breaker.success();
    breaker.failure();
    breaker.failure();
    expect(breaker.allows()).toBe(true);
    breaker.failure();
    expect(breaker.allows()).toBe(false);
    expect(changes).toEqual(["open"]);
  });

  it("probes once per cooldown while open and closes on a good probe", () => {
    const { state, breaker, changes } = setup();
    for (let i = 0; i < 3; i++) breaker.failure();
    expect(breaker.shouldProbe()).toBe(false); // cooling down
    state.now = 100;
    expect(breaker.shouldProbe()).toBe(true);
    expect(breaker.shouldProbe()).toBe(false); // one probe at a time
    breaker.probeResult(false);
    expect(breaker.allows()).toBe(false);
    state.now = 150;
    expect(breaker.shouldProbe()).toBe(false); // a failed probe restarts the cooldown
    state.now = 200;
    expect(breaker.shouldProbe()).toBe(true);
    breaker.probeResult(true);
    expect(breaker.allows()).toBe(true);
    expect(changes).toEqual(["open", "closed"]);
  });

  it("needs `threshold` new failures to open again after closing", () => {
    const { state, breaker } = setup();
    for (let i = 0; i < 3; i++) breaker.failure();
    state.now = 100;
    breaker.shouldProbe();
    breaker.probeResult(true);
    breaker.failure();
    breaker.failure();
    expect(breaker.allows()).toBe(true);
  });

  it("never probes while closed", () => {
    const { breaker } = setup();
    expect(breaker.shouldProbe()).toBe(false);
  });
});
