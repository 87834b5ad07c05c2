import { describe, expect, it } from "vitest";
import { HitGate } from "@/lib/check/hit-gate";

/** Share of `checks` checks that consult, each lookup hitting when `hit(i)`. */
function consulted(gate: HitGate, checks: number, hit: (i: number) => boolean): number {
  let n = 0;
  for (let i = 0; i < checks; i++) {
    if (!gate.consults()) continue;
    n++;
    gate.tally(hit(i));
  }
  return n / checks;
}

describe("HitGate", () => {
  it("lets every check consult while a window's hits reach the threshold", () => {
    const gate = new HitGate(0.5, 100, 8);
    expect(consulted(gate, 1_000, (i) => i % 2 === 0)).toBe(1);
    expect(gate.skippingLookups).toBe(false);
  });

  it("below it, one check in sampleEvery, until a sampled window hits enough again", () => {
    const gate = new HitGate(0.5, 100, 8);
    expect(consulted(gate, 100, () => false)).toBe(1);
    expect(gate.skippingLookups).toBe(true);
    expect(consulted(gate, 800, () => false)).toBe(1 / 8);
    consulted(gate, 800, () => true);
    expect(gate.skippingLookups).toBe(false);
    expect(consulted(gate, 100, () => true)).toBe(1);
  });

  it("starts over on reset, and refuses thresholds outside 0..1", () => {
    const gate = new HitGate(0.9, 10);
    consulted(gate, 10, () => false);
    expect(gate.skippingLookups).toBe(true);
    gate.reset();
    expect(gate.skippingLookups).toBe(false);
    expect(() => new HitGate(1.5)).toThrow(RangeError);
    expect(() => new HitGate(0.5, 0)).toThrow(RangeError);
  });
});
