import { describe, expect, it } from "vitest";
import { encodeKeyPart, entryOf, limitKey, tenantTag } from "@/lib/check/limiter/keys";
import { buildCall } from "@/lib/check/limiter/evaluate";
import { exactnessProblem } from "@/lib/check/limiter/args";
import { rule, spec } from "./rules";

describe("key layout", () => {
  it("puts every key of a tenant under one hash tag and escapes user text", () => {
    const key = limitKey(spec("acme", "key-rps", rule("gcra", 10, 1_000), "s:{t:other}:x y%"));
    expect(key).toBe("{t:acme}:o:s%3A%7Bt%3Aother%7D%3Ax%20y%25");
    const log = limitKey(spec("acme", "ip", rule("sliding_log", 10, 1_000), "s:{t:other}:x y%"));
    expect(log).toBe("{t:acme}:ip:s%3A%7Bt%3Aother%7D%3Ax%20y%25:l");
    expect(key.indexOf("{")).toBe(0);
    expect(key.slice(1).match(/[{}]/g)).toEqual(["}"]);
    expect(tenantTag("a}b{c")).toBe("{t:a%7Db%7Bc}");
    expect(encodeKeyPart("ü-ok_1.~")).toBe("%C3%BC-ok_1.~");
    expect(encodeKeyPart("a\uD800b")).toBe("a%EF%BF%BDb");
    expect(encodeKeyPart("*!'()[]?")).toBe("%2A%21%27%28%29%5B%5D%3F");
  });
});

describe("owner keys and entries", () => {
  it("keeps every counter of one owner in one key, each limit, route and algorithm its own entry", () => {
    const gcra = rule("gcra", 10, 1_000);
    const perRoute = { ...spec("acme", "r:global:GET /a:x", gcra, "k.1 GET /a"), owner: "k.1" };
    const plain = spec("acme", "p:free:rps", gcra, "k.1");
    expect(limitKey(perRoute)).toBe("{t:acme}:o:k.1");
    expect(limitKey(plain)).toBe("{t:acme}:o:k.1");
    const ids = [
      entryOf(plain),
      entryOf(perRoute),
      entryOf({ ...perRoute, identity: "k.1 GET /b" }),
      entryOf({ ...plain, rule: rule("token_bucket", 10, 1_000) }),
      entryOf({ ...plain, id: "p:free:rpm" }),
    ];
    for (const id of ids) expect(id).toMatch(/^[\w-]{8}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // the same limit for another owner: another key, the same entry
    expect(entryOf({ ...plain, identity: "k.2" })).toBe(entryOf(plain));
  });
});

describe("script arguments", () => {
  it("sends six integers and the entry per limit and reduces a meter's rate by the gcd", () => {
    const limits = [
      spec("t", "a", rule("gcra", 100, 60_000, { burst: 5, action: "delay", maxDelayMs: 250 })),
      spec("t", "b", rule("token_bucket", 10, 1_000, { action: "delay", maxDelayMs: 9 }), "t"),
      spec("t", "c", rule("sliding_window", 10, 1_000, { mode: "shadow" }), "t"),
    ];
    const call = buildCall(limits, { cost: 2, dryRun: true });
    const [a, b, c] = limits.map(entryOf);
    expect(call.args).toEqual([
      2,
      1,
      -1,
      6,
      1,
      600,
      5,
      0,
      250,
      a,
      4,
      1,
      100,
      10,
      0,
      -1,
      b,
      3,
      10,
      1_000,
      10,
      1,
      -1,
      c,
    ]);
    // limits of one owner share its key
    expect(call.keys).toEqual(["{t:t}:o:k%3A1", "{t:t}:o:t", "{t:t}:o:t"]);
  });

  it("refuses what a check cannot be: bad cost, two tenants, the same counter twice", () => {
    const a = spec("t", "a", rule("fixed_window", 10, 1_000));
    expect(() => buildCall([a], { cost: 0, dryRun: false })).toThrow(/cost/);
    expect(() => buildCall([a, spec("u", "a", a.rule)], { cost: 1, dryRun: false })).toThrow(/one tenant/);
    expect(() => buildCall([a, a], { cost: 1, dryRun: false })).toThrow(/twice/);
  });

  it("names rules whose arithmetic would pass 2^53", () => {
    expect(exactnessProblem(rule("sliding_window", 1_000_000_000, 86_400_000))).toMatch(/2\^53/);
    expect(exactnessProblem(rule("gcra", 1_000_000_000, 86_400_000))).toBeNull();
    expect(exactnessProblem(rule("fixed_window", 1_000_000_000, 31_536_000_000))).toBeNull();
  });
});
