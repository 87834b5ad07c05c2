import { describe, expect, it } from "vitest";
import { ListMatcher, listVerdict } from "@/lib/check/lists/list-matcher";
import type { PublishedLists } from "@/lib/check/lists/list-types";
import { VerdictMemo } from "@/lib/check/lists/verdict-memo";

// The remembered verdicts: equal to the matcher's own, per tenant, dropped when either
// list is replaced by a new version, and bounded whatever subjects arrive.

const matcher = (lists: Partial<PublishedLists>) => new ListMatcher({ deny: [], allow: [], ...lists });

describe("VerdictMemo", () => {
  it("answers what listVerdict answers, for every kind of entry and subject", () => {
    const global = matcher({ deny: ["203.0.113.0/24"], allow: [{ entry: "ops-bot", limits: ["api"] }] });
    const tenant = matcher({ deny: ["192.0.2.7", "2001:db8::/32", "bot-7"], allow: ["198.51.100.0/24"] });
    const memo = new VerdictMemo();
    const subjects = [
      "192.0.2.7",
      "192.0.2.8",
      "2001:db8::1",
      "bot-7",
      "ops-bot",
      "198.51.100.9",
      "203.0.113.4",
    ];
    for (let round = 0; round < 2; round++)
      for (const subject of subjects)
        expect(memo.verdict(global, tenant, "acme", subject), subject).toEqual(
          listVerdict(global, tenant, subject),
        );
    expect(memo.size).toBe(subjects.length);
  });

  it("keeps tenants apart: one subject, two tenants' lists", () => {
    const memo = new VerdictMemo();
    const acme = matcher({ deny: ["bot-7"] });
    const globex = matcher({ deny: ["bot-8"] });
    expect(memo.verdict(null, acme, "acme", "bot-7")).toEqual({ deny: true });
    expect(memo.verdict(null, globex, "globex", "bot-7")).toBeUndefined();
    expect(memo.verdict(null, acme, "acme", "bot-7")).toEqual({ deny: true });
    expect(memo.verdict(null, globex, "globex", "bot-8")).toEqual({ deny: true });
  });

  it("forgets a verdict once the tenant's or the global lists are replaced", () => {
    const memo = new VerdictMemo();
    const before = matcher({ deny: ["bot-7"] });
    expect(memo.verdict(null, before, "acme", "bot-7")).toEqual({ deny: true });
    const after = matcher({ deny: ["bot-9"] });
    expect(memo.verdict(null, after, "acme", "bot-7")).toBeUndefined();
    const global = matcher({ deny: ["bot-7"] });
    expect(memo.verdict(global, after, "acme", "bot-7")).toEqual({ deny: true });
    expect(memo.verdict(null, after, "acme", "bot-7")).toBeUndefined();
  });

  it("holds at most two generations, and keeps what is read while a flood passes", () => {
    const memo = new VerdictMemo(100);
    const tenant = matcher({ deny: ["bot-0"] });
    // listVerdict builds a new object per call: the same object back means it was remembered
    const first = memo.verdict(null, tenant, "acme", "bot-0");
    expect(first).toEqual({ deny: true });
    for (let i = 0; i < 1_000; i++) {
      expect(memo.verdict(null, tenant, "flood", `user-${i}`)).toBeUndefined();
      // a subject read between the flood's keeps its place
      expect(memo.verdict(null, tenant, "acme", "bot-0")).toBe(first);
      expect(memo.size).toBeLessThanOrEqual(200);
    }
    expect(() => new VerdictMemo(0)).toThrow(RangeError);
  });
});
