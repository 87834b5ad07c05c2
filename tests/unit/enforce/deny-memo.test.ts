import { describe, expect, it } from "vitest";
import { answerFor, DenyCache } from "@/lib/check/deny-cache";
import { denial } from "./fixtures";

// Deny cache hits share one rendering while the aged answer would be the same, and only then.

describe("answerFor", () => {
  it("reuses the answer within one ms and renders it again when the aged answer changes", () => {
    const cache = new DenyCache(100, () => 1_000);
    const stored = denial(500);
    cache.remember("sig", 1, stored, 1_000.25);
    const entry = cache.lookup("sig", 1, stored.template);
    if (!entry) throw new Error("no entry");
    const seen = new Set<unknown>();
    for (const now of [1_000.3, 1_000.5, 1_000.9, 1_001.1, 1_001.24, 1_001.25, 1_001.26, 1_200.7]) {
      const answer = answerFor(entry, now);
      seen.add(answer);
      // always exactly what rendering the stored reply at that moment gives
      const elapsed = Math.max(0, Math.floor(now - 1_000.25));
      const retry = Math.max(1, Math.ceil(1_500.25 - now));
      expect(answer).toEqual(stored.template.render(stored.reply, 0, stored.keyJson, elapsed, retry));
    }
    // elapsed ms 0 (five times), then 1 (twice), then 200: three distinct answers
    expect(seen.size).toBe(3);
  });
});
