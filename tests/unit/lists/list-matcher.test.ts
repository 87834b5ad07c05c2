import { describe, expect, it } from "vitest";
import { ListMatcher, listVerdict } from "@/lib/check/lists/list-matcher";
import type { PublishedLists } from "@/lib/check/lists/list-types";

// The matcher of allow and deny lists: exact addresses, nested and disjoint CIDR ranges of
// both families, subjects, mapped IPv4, joined skips, deny before allow, and a large list.

const matcher = (lists: Partial<PublishedLists>) => new ListMatcher({ deny: [], allow: [], ...lists });
const verdict = (m: ListMatcher | null, subject: string, global: ListMatcher | null = null) =>
  listVerdict(global, m, subject);

describe("ListMatcher", () => {
  it("denies exact addresses, ranges and subjects, and nothing else", () => {
    const m = matcher({ deny: ["192.0.2.7", "198.51.100.0/24", "2001:db8::/32", "bot-7"] });
    for (const hit of [
      "192.0.2.7",
      "198.51.100.0",
      "198.51.100.255",
      "2001:db8::1",
      "2001:db8:ffff::",
      "bot-7",
    ])
      expect(verdict(m, hit), hit).toEqual({ deny: true });
    for (const miss of [
      "192.0.2.8",
      "198.51.101.0",
      "198.51.99.255",
      "2001:db9::",
      "2001:db7:ffff::",
      "bot-8",
    ])
      expect(verdict(m, miss), miss).toBeUndefined();
  });

  it("meets IPv4 entries with IPv4-mapped IPv6 subjects and the reverse", () => {
    const m = matcher({ deny: ["192.0.2.0/24", "::ffff:203.0.113.9"] });
    expect(verdict(m, "::ffff:192.0.2.44")).toEqual({ deny: true });
    expect(verdict(m, "::ffff:c000:0201")).toEqual({ deny: true });
    expect(verdict(m, "203.0.113.9")).toEqual({ deny: true });
    expect(verdict(m, "::192.0.2.44")).toBeUndefined();
  });

  it("takes /0 as every address of its family (IPv4 addresses are in ::/0 too)", () => {
    const v4 = matcher({ deny: ["0.0.0.0/0"] });
    expect(verdict(v4, "8.8.8.8")).toEqual({ deny: true });
    expect(verdict(v4, "2001:db8::1")).toBeUndefined();
    expect(verdict(v4, "not-an-address")).toBeUndefined();
    const all = matcher({ deny: ["::/0"] });
    expect(verdict(all, "2001:db8::1")).toEqual({ deny: true });
    expect(verdict(all, "8.8.8.8")).toEqual({ deny: true });
  });

  it("finds a range nested inside another, and one past a nested one", () => {
    const m = matcher({ deny: ["10.0.0.0/8", "10.1.0.0/16", "10.1.2.0/24", "10.200.0.0/16"] });
    for (const hit of [
      "10.0.0.1",
      "10.1.2.3",
      "10.1.3.0",
      "10.1.255.255",
      "10.2.0.0",
      "10.201.0.0",
      "10.255.255.255",
    ])
      expect(verdict(m, hit), hit).toEqual({ deny: true });
    expect(verdict(m, "11.0.0.0")).toBeUndefined();
    expect(verdict(m, "9.255.255.255")).toBeUndefined();
  });

  it("joins the skips of every allow entry met, an entry without names skipping all", () => {
    const m = matcher({
      allow: [
        { entry: "10.0.0.0/8", limits: ["b"] },
        { entry: "10.1.0.0/16", limits: ["a"] },
        { entry: "10.1.2.3", limits: ["c", "a"] },
        "2001:db8::/48",
      ],
    });
    expect(verdict(m, "10.1.2.3")).toEqual({ deny: false, skip: ["a", "b", "c"] });
    expect(verdict(m, "10.9.0.0")).toEqual({ deny: false, skip: ["b"] });
    expect(verdict(m, "2001:db8::5")).toEqual({ deny: false, skip: null });
    expect(verdict(m, "2001:db8:1::5")).toBeUndefined();
  });

  it("lets a deny in either list win over any allow, and joins the global allow with the tenant's", () => {
    const global = matcher({
      deny: ["203.0.113.0/24"],
      allow: [{ entry: "198.51.100.0/24", limits: ["g"] }],
    });
    const tenant = matcher({ allow: ["203.0.113.5", { entry: "198.51.100.7", limits: ["t"] }] });
    expect(verdict(tenant, "203.0.113.5", global)).toEqual({ deny: true });
    expect(verdict(tenant, "198.51.100.7", global)).toEqual({ deny: false, skip: ["g", "t"] });
    expect(verdict(null, "198.51.100.8", global)).toEqual({ deny: false, skip: ["g"] });
  });

  it("merges duplicate entries and skips malformed ones rather than throwing", () => {
    const m = matcher({
      deny: ["10.0.0.0/33", "nonsense value"],
      allow: [
        { entry: "10.0.0.0/8", limits: ["a"] },
        { entry: "10.0.0.0/8", limits: ["b"] },
      ],
    });
    expect(verdict(m, "10.0.0.1")).toEqual({ deny: false, skip: ["a", "b"] });
  });

  it("answers from a list of 100,000 mixed entries as from a short one", () => {
    const deny: string[] = [];
    for (let i = 0; i < 25_000; i++) deny.push(`10.${(i >> 8) & 255}.${i & 255}.1`);
    for (let i = 0; i < 25_000; i++) deny.push(`172.${16 + (i >> 12)}.${(i >> 4) & 255}.${(i & 15) << 4}/28`);
    for (let i = 0; i < 25_000; i++) deny.push(`2001:db8:${i.toString(16)}::/48`);
    for (let i = 0; i < 25_000; i++) deny.push(`user-${i}`);
    const m = matcher({ deny });
    expect(verdict(m, "10.0.5.1")).toEqual({ deny: true });
    expect(verdict(m, "172.16.0.17")).toEqual({ deny: true });
    expect(verdict(m, "2001:db8:61a7:1::1")).toEqual({ deny: true });
    expect(verdict(m, "2001:db8:61a8::1")).toBeUndefined();
    expect(verdict(m, "user-24999")).toEqual({ deny: true });
    expect(verdict(m, "10.0.5.2")).toBeUndefined();
    // against a list of four entries in the same loop: a shared machine's load falls on both
    const small = matcher({ deny: ["10.0.0.1", "172.16.0.0/28", "2001:db8::/48", "user-0"] });
    const subjects = ["10.0.5.2", "192.0.2.1", "2001:db9::1", "user-x"];
    // the fastest round of each: a round the machine took the CPU away from tells nothing
    let [large, short] = [Infinity, Infinity];
    for (let round = 0; round < 8; round++) {
      let started = performance.now();
      for (let i = 0; i < 20_000; i++) verdict(m, subjects[i & 3] as string);
      large = Math.min(large, performance.now() - started);
      started = performance.now();
      for (let i = 0; i < 20_000; i++) verdict(small, subjects[i & 3] as string);
      short = Math.min(short, performance.now() - started);
    }
    // a binary search of 17 steps against 2: the address parsing both do dominates
    expect(large / short).toBeLessThan(4);
  }, 60_000);
});
