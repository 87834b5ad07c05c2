import { describe, expect, it } from "vitest";
import { MAX_BATCH, parseBatch, parseCheck } from "@/lib/check/body-schema";

const base = { tenant: "acme" };

describe("check body", () => {
  it("fills the defaults", () => {
    expect(parseCheck({ apiKey: "sk_x" })).toEqual({
      ok: true,
      value: { apiKey: "sk_x", tenant: null, key: null, route: null, subject: null, cost: 1, dryRun: false },
    });
    const full = {
      tenant: "acme",
      key: "backend",
      route: "GET /v1/items/42?x=1",
      subject: "203.0.113.9",
      cost: 1_000_000,
      dryRun: true,
    };
    expect(parseCheck(full)).toEqual({ ok: true, value: { apiKey: null, ...full } });
  });

  const bad: Array<[string, unknown, string]> = [
    ["not an object", [1], ""],
    ["null", null, ""],
    ["neither apiKey nor tenant", { route: "GET /x" }, "apiKey"],
    ["both apiKey and tenant", { apiKey: "sk", tenant: "acme" }, "tenant"],
    ["key with apiKey", { apiKey: "sk", key: "backend" }, "key"],
    ["empty apiKey", { apiKey: "" }, "apiKey"],
    ["apiKey not a string", { apiKey: 5 }, "apiKey"],
    ["tenant with capitals", { tenant: "Acme" }, "tenant"],
    ["tenant too long", { tenant: "a".repeat(64) }, "tenant"],
    ["key not a name", { ...base, key: "a b" }, "key"],
    ["route without a method", { ...base, route: "/v1/items" }, "route"],
    ["route without a slash", { ...base, route: "GET v1" }, "route"],
    ["route too long", { ...base, route: `GET /${"a".repeat(2100)}` }, "route"],
    ["empty subject", { ...base, subject: "" }, "subject"],
    ["subject of 257", { ...base, subject: "s".repeat(257) }, "subject"],
    ["cost 0", { ...base, cost: 0 }, "cost"],
    ["cost 1.5", { ...base, cost: 1.5 }, "cost"],
    ["cost over 1e6", { ...base, cost: 1_000_001 }, "cost"],
    ["cost as a string", { ...base, cost: "1" }, "cost"],
    ["dryRun as a string", { ...base, dryRun: "yes" }, "dryRun"],
    ["unknown field", { ...base, cots: 2 }, "cots"],
  ];
  it.each(bad)("refuses %s at its field", (_name, input, path) => {
    const result = parseCheck(input);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.path).toBe(path);
      expect(result.error.message.length).toBeGreaterThan(5);
    }
  });

  it("accepts the edges of each range", () => {
    expect(parseCheck({ ...base, subject: "s".repeat(256), cost: 1 }).ok).toBe(true);
    expect(parseCheck({ ...base, subject: "s" }).ok).toBe(true);
    expect(parseCheck({ ...base, route: "delete /" }).ok).toBe(true);
  });

  it("places errors inside a batch item", () => {
    const result = parseCheck({ ...base, cost: -1 }, "checks[3]");
    expect(result).toMatchObject({ ok: false, error: { path: "checks[3].cost" } });
  });
});

describe("batch envelope", () => {
  it("takes 1..1000 checks and leaves each check to its own validation", () => {
    expect(parseBatch({ checks: [{}, 5] })).toEqual({ ok: true, value: [{}, 5] });
    expect(parseBatch({ checks: new Array(MAX_BATCH).fill(base) }).ok).toBe(true);
  });

  it.each([
    ["empty", { checks: [] }, "checks"],
    ["too many", { checks: new Array(MAX_BATCH + 1).fill(base) }, "checks"],
    ["not an array", { checks: {} }, "checks"],
    ["missing", {}, "checks"],
    ["unknown field", { checks: [base], extra: 1 }, "extra"],
  ])("refuses %s", (_name, input, path) => {
    expect(parseBatch(input)).toMatchObject({ ok: false, error: { path } });
  });
});
