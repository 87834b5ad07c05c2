// The specificity table: which declared pattern a check's route resolves to.

import { describe, expect, it } from "vitest";

import { parseCheckRoute } from "@/lib/check/routes/check-route";
import { createRouteMatcher } from "@/lib/check/routes/route-matcher";

const GLOBAL = [
  "GET /v1/items/:id",
  "* /v1/items/new",
  "GET /v1/items/*",
  "POST /v1/items",
  "* /v1/*",
  "GET /v1/users/:id/posts",
  "GET /v1/users/me/*",
  "GET /",
  "GET /v1/orders/:id",
];
const TENANT = ["GET /v1/orders/:order", "* /v1/items/:id", "GET /v1/reports/*"];

const matcher = createRouteMatcher(GLOBAL, TENANT);

describe("route specificity", () => {
  it.each([
    // literal beats :param, which beats *
    ["GET /v1/items/new", "* /v1/items/new", "a literal segment beats :param even with method *"],
    ["GET /v1/items/42", "GET /v1/items/:id", ":param beats *; GET beats the tenant's * at equal path"],
    ["GET /v1/items/42/history", "GET /v1/items/*", "* takes the rest"],
    ["POST /v1/items", "POST /v1/items", "exact literal"],
    ["DELETE /v1/items/42", "* /v1/items/:id", "method * matches any method (tenant route)"],
    ["GET /v1/anything/else", "* /v1/*", "falls back to the catch-all"],
    // segment by segment from the left: an earlier literal outranks later ones
    ["GET /v1/users/me/posts", "GET /v1/users/me/*", "literal 'me' at segment 3 beats :id"],
    ["GET /v1/users/7/posts", "GET /v1/users/:id/posts", "backtracks from the 'me' branch"],
    // tenant beats global at equal rank
    ["GET /v1/orders/9", "GET /v1/orders/:order", "same shape: the tenant's route wins"],
    ["GET /v1/reports/2024/q1", "GET /v1/reports/*", "tenant-only route"],
    // query string, trailing slash, root
    ["GET /v1/items/42?expand=1", "GET /v1/items/:id", "the query string is ignored"],
    ["GET /v1/items/42/", "GET /v1/items/:id", "a trailing slash is ignored"],
    ["GET /", "GET /", "root"],
    ["GET /?page=2", "GET /", "root with a query"],
    ["get /v1/items/42", "GET /v1/items/:id", "the check's method is case-insensitive"],
  ])("%s -> %s (%s)", (route, expected) => {
    expect(matcher.match(route)).toBe(expected);
  });

  it.each([
    ["POST /", "no POST / route"],
    ["GET /v2/items", "nothing under /v2"],
    ["GET /v1", "* needs at least one segment after /v1"],
    ["not a route", "malformed routes have no route"],
  ])("%s -> null (%s)", (route) => {
    expect(matcher.match(route)).toBeNull();
  });

  it("ranks path before method: * /a/b beats GET /a/:x for GET /a/b", () => {
    const m = createRouteMatcher(["GET /a/:x", "* /a/b"]);
    expect(m.match("GET /a/b")).toBe("* /a/b");
    expect(m.match("GET /a/c")).toBe("GET /a/:x");
  });

  it("ranks method before scope: a global GET beats the tenant's * on the same path", () => {
    const m = createRouteMatcher(["GET /a"], ["* /a"]);
    expect(m.match("GET /a")).toBe("GET /a");
    expect(m.match("PUT /a")).toBe("* /a");
  });

  it("keeps the tenant's spelling when it redeclares a global pattern's shape", () => {
    const m = createRouteMatcher(["GET /a/:id"], ["GET /a/:key"]);
    expect(m.match("GET /a/1")).toBe("GET /a/:key");
    expect(createRouteMatcher(["GET /a/:id"]).match("GET /a/1")).toBe("GET /a/:id");
  });

  it("falls back to a less specific path when the method does not fit the better one", () => {
    const m = createRouteMatcher(["POST /a/b", "GET /a/:x", "GET /*"]);
    expect(m.match("GET /a/b")).toBe("GET /a/:x");
    expect(m.match("GET /z")).toBe("GET /*");
  });

  it("throws on a pattern that does not parse (snapshots hold validated patterns only)", () => {
    expect(() => createRouteMatcher(["GET /a/"])).toThrow(/does not parse/);
  });

  // The matcher reads the route in place; parseCheckRoute's split is the rule it must keep.
  it("matches any spelling of a route as parseCheckRoute reads it (random spellings)", () => {
    const segments = [
      "v1",
      "items",
      "42",
      "new",
      "users",
      "me",
      "posts",
      "orders",
      "reports",
      "x3",
      "x9",
      "?x=1",
      "#top",
      "a b",
      "",
    ];
    // under /v1 more literals than are compared in place: looked up by segment instead
    const wide = createRouteMatcher(
      [...GLOBAL, ...Array.from({ length: 10 }, (_, i) => `GET /v1/x${i}/:id`)],
      TENANT,
    );
    const methods = ["GET", "get", "Post", "DELETE", "ß", "", " "];
    let seed = 7;
    const next = (n: number): number => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) % n;
    let compared = 0;
    for (let i = 0; i < 5_000; i++) {
      let path = ["/", "/v1/", "//v1/", "v1/", " /v1/"][next(5)] as string;
      for (let j = next(5); j > 0; j--) path += `${segments[next(segments.length)]}${next(4) ? "/" : "//"}`;
      if (next(2)) path = path.slice(0, -1);
      const route = `${methods[next(methods.length)]} ${path}`;
      const parsed = parseCheckRoute(route);
      const canonical = parsed && `${parsed.method} /${parsed.segments.join("/")}`;
      // the canonical spelling has no query, empty segment or lower case left to disagree on
      for (const m of [matcher, wide]) {
        const expected = canonical === null ? null : m.match(canonical);
        expect(m.match(route), route).toBe(expected);
        if (expected !== null) compared++;
      }
      if (canonical !== null && /^GET \/v1\/x3\/[^/]+$/.test(canonical))
        expect(wide.match(route)).toBe("GET /v1/x3/:id");
    }
    expect(compared).toBeGreaterThan(2_000);
  });
});
