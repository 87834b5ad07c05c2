import { describe, expect, it } from "vitest";
import { DocumentBudget } from "@/lib/control/config/document/worker/document-budget";

// Each principal's budget of document time: a new principal starts full, a long document
// may take it below zero, and it refills at its rate; buckets back at capacity are dropped.

const options = { capacityMs: 15_000, refillPerSecond: 250 };

describe("document budget", () => {
  it("lets a principal start until its time is spent, then says how long to wait", () => {
    const budget = new DocumentBudget(options);
    expect(budget.waitSeconds("a", 0)).toBe(0);
    budget.charge("a", 14_000, 0);
    expect(budget.waitSeconds("a", 0)).toBe(0);
    budget.charge("a", 3_000, 0); // 2 s below zero
    expect(budget.waitSeconds("a", 0)).toBe(9); // (2,000 + 1) / 250 per second, rounded up
    expect(budget.waitSeconds("b", 0)).toBe(0);
    expect(budget.waitSeconds("a", 8_000)).toBe(1);
    expect(budget.waitSeconds("a", 8_100)).toBe(0);
  });

  it("holds a looping principal to its refill rate", () => {
    const budget = new DocumentBudget(options);
    let now = 0;
    let used = 0;
    // a loop of 2 s documents, each started as soon as the budget allows, for 10 minutes
    while (now < 600_000) {
      const wait = budget.waitSeconds("loop", now);
      if (wait > 0) {
        now += wait * 1000;
        continue;
      }
      budget.charge("loop", 2_000, now + 2_000);
      used += 2_000;
      now += 2_000;
    }
    // the capacity once, then a quarter of the time, give or take one document
    expect(used).toBeLessThanOrEqual(15_000 + 600 * 250 + 2_000);
    expect(used).toBeGreaterThan(600 * 250 - 2_000);
  });

  it("forgets principals whose bucket is full again", () => {
    const budget = new DocumentBudget(options);
    budget.charge("a", 1_000, 0);
    budget.charge("b", 20_000, 0);
    // 4 s later a is full again and dropped, b still owes
    budget.charge("c", 1, 4_000);
    expect(budget.waitSeconds("a", 4_000)).toBe(0);
    expect(budget.waitSeconds("b", 4_000)).toBeGreaterThan(0);
  });
});
