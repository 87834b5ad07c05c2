import { describe, expect, it } from "vitest";
import { checkSchema, MAX_COST, parseCheck } from "@/lib/check/body-schema";
import { validFields } from "@/lib/check/check-fields";

// The hand-written reading of a valid check body must accept exactly what checkSchema
// accepts, and give the same fields: it replaces the schema for valid bodies only.

const long = (n: number): string => "a".repeat(n);
const VALUES: Record<string, unknown[]> = {
  apiKey: ["sk_1", "", long(512), long(513), 7, null, ["sk"], "é\u0000"],
  tenant: ["acme", "a-b-9", "Acme", "a_b", "", long(63), long(64), 1, null],
  key: ["backend", "x", "has space", long(64), false],
  route: [
    "GET /v1/items/42",
    "get /",
    "DELETE /a?b=1#c",
    "GET v1",
    "/v1/items",
    "GET /a b",
    "PROPFINDPROPFINDX /x",
    "GET /\u0000",
    "GET /\ud800",
    "GET /\ud83d\ude00",
    `GET /${long(2043)}`,
    `GET /${long(2044)}`,
    42,
  ],
  subject: ["alice", "", long(256), long(257), "x\udc00", "\u0000", "😀", 5, true],
  cost: [1, 2, 0, -1, 1.5, MAX_COST, MAX_COST + 1, "1", 1e21, null],
  dryRun: [true, false, "true", 0, null],
  adjustable: [true, false, "yes", 1],
  cots: [2],
};
const NAMES = Object.keys(VALUES).concat("__proto__");

describe("validFields", () => {
  it("accepts exactly the bodies checkSchema accepts, with the same fields (random bodies)", () => {
    let seed = 11;
    const next = (n: number): number => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) % n;
    let accepted = 0;
    for (let i = 0; i < 20_000; i++) {
      const body: Record<string, unknown> = {};
      for (let n = next(5); n > 0; n--) {
        const name = NAMES[next(NAMES.length)] as string;
        const values = Object.hasOwn(VALUES, name) ? (VALUES[name] as unknown[]) : [{}];
        // defineProperty: "__proto__" becomes an own field, as JSON.parse makes it
        Object.defineProperty(body, name, {
          value: values[next(values.length)],
          enumerable: true,
          configurable: true,
          writable: true,
        });
      }
      const fast = validFields(body, MAX_COST);
      const schema = checkSchema.safeParse(body);
      expect(fast !== null, JSON.stringify(body)).toBe(schema.success);
      if (fast !== null && schema.success) {
        expect(fast).toEqual(schema.data);
        accepted++;
      }
    }
    expect(accepted).toBeGreaterThan(1_000);
    // CPU-bound (about 1 s here when quiet): a loaded machine may take many times that
  }, 60_000);

  it("refuses what is not a plain object, leaving the schema to name it", () => {
    for (const input of [null, [], "x", 1, new Date(), new Map()])
      expect(validFields(input, MAX_COST)).toBeNull();
    expect(parseCheck([])).toEqual({ ok: false, error: { path: "", message: "must be a JSON object" } });
    expect(parseCheck(JSON.parse('{"apiKey":"sk","__proto__":{}}'))).toMatchObject({
      ok: false,
      error: { path: "__proto__" },
    });
  });
});
