import { describe, expect, it } from "vitest";
import { agedDecision, answerFor, DenyCache } from "@/lib/enforce/deny-cache";
import type { CheckDecision } from "@/lib/limiter/types";
import type { DecisionBody } from "@/lib/enforce/types";
import { denied } from "./fixtures";

// Deny cache hits share one body while the aged decision would be the same, and only then.

const build = (decision: CheckDecision): DecisionBody => ({ decision }) as unknown as DecisionBody;
const decisionOf = (body: DecisionBody): CheckDecision => (body as unknown as { decision: CheckDecision }).decision;

describe("answerFor", () => {
  it("reuses the body within one ms and rebuilds it when the aged decision changes", () => {
    const cache = new DenyCache(100, () => 1_000);
    cache.remember("sig", 1, denied(500), 1_000.25);
    const entry = cache.lookup("sig", 1);
    if (!entry) throw new Error("no entry");
    let builds = 0;
    const counted = (d: CheckDecision): DecisionBody => {
      builds++;
      return build(d);
    };
    for (const now of [1_000.3, 1_000.5, 1_000.9, 1_001.1, 1_001.24, 1_001.25, 1_001.26, 1_200.7]) {
      const body = answerFor(entry, now, counted);
      // always exactly what agedDecision gives at that moment
      expect(decisionOf(body)).toEqual(agedDecision(entry, now));
    }
    // elapsed ms 0 (five times), then 1 (twice), then 200: three distinct answers
    expect(builds).toBe(3);
  });
});
